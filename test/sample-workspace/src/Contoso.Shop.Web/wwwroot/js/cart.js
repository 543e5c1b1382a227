// Browser-side helpers for the Blazor cart: header badge animation, a local
// snapshot of the cart for the offline page, and the post-checkout receipt toast.
"use strict";

const SNAPSHOT_KEY = "contoso.cart.snapshot";
const SNAPSHOT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

class CartBadge {
  constructor(element) {
    this.element = element;
    this.element.addEventListener("animationend", () =>
      this.element.classList.remove("cart-badge--flash"));
  }

  static find(id) {
    const element = document.getElementById(id);
    return element ? new CartBadge(element) : null;
  }

  flash() {
    // Restart the animation even if it is already running.
    this.element.classList.remove("cart-badge--flash");
    void this.element.offsetWidth;
    this.element.classList.add("cart-badge--flash");
  }
}

function flashBadge(id) {
  CartBadge.find(id)?.flash();
}

function saveSnapshot(items) {
  try {
    localStorage.setItem(SNAPSHOT_KEY, JSON.stringify({ savedAt: Date.now(), items }));
  } catch (err) {
    // Private browsing or a full quota: the snapshot is a convenience only.
    console.warn("Could not save cart snapshot", err);
  }
}

function loadSnapshot() {
  const raw = localStorage.getItem(SNAPSHOT_KEY);
  if (!raw) {
    return [];
  }

  try {
    const snapshot = JSON.parse(raw);
    if (Date.now() - snapshot.savedAt > SNAPSHOT_MAX_AGE_MS) {
      localStorage.removeItem(SNAPSHOT_KEY);
      return [];
    }
    return Array.isArray(snapshot.items) ? snapshot.items : [];
  } catch {
    localStorage.removeItem(SNAPSHOT_KEY);
    return [];
  }
}

function showMiniReceipt(template, total, durationMs = 6000) {
  const receipt = document.createElement("div");
  receipt.className = "mini-receipt";
  receipt.setAttribute("role", "status");
  receipt.textContent = template.replace("{total}", Number(total).toFixed(2));
  document.body.append(receipt);
  setTimeout(() => receipt.remove(), durationMs);
  localStorage.removeItem(SNAPSHOT_KEY);
}

function registerOfflineHandler() {
  let banner = null;

  window.addEventListener("offline", () => {
    banner = document.createElement("div");
    banner.className = "offline-banner";
    banner.textContent = "You are offline. Your cart is kept on this device.";
    document.body.prepend(banner);
  });

  window.addEventListener("online", () => {
    banner?.remove();
    banner = null;
  });

  // Blazor marks its reconnect dialog with this class once it gives up;
  // if we are also offline, send the user somewhere useful.
  const observer = new MutationObserver(() => {
    const modal = document.getElementById("components-reconnect-modal");
    if (modal?.classList.contains("components-reconnect-failed") && !navigator.onLine) {
      observer.disconnect();
      window.location.href = "/offline.html";
    }
  });
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["class"],
  });
}

window.contosoCart = { flashBadge, saveSnapshot, loadSnapshot, showMiniReceipt };
registerOfflineHandler();
