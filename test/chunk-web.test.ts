// Golden tests for web files: CSS rule sets and media queries, SCSS nesting resolved into full
// selectors, JavaScript classes and functions, TypeScript interfaces/types/enums/namespaces with
// member keys, and HTML landmarks and ids (inline scripts outlined in place). Outlines with exact
// line ranges, the chunks cut from them, and broken input that degrades instead of failing.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveSelectors } from '../core/chunk/lang/css.ts';
import { rewriteScript } from '../core/chunk/lang/script-repair.ts';
import { chunkFile, chunkLines, chunkText, expectWellFormed, findNode, fixtureDir, outlineLines, sampleDir } from './helpers/chunk-golden.ts';
import { languageOf } from '../core/scan/languages.ts';
import { DEFAULT_INCLUDE_EXTENSIONS } from '../core/settings-defaults.ts';

const wwwroot = 'sample-workspace/src/Contoso.Shop.Web/wwwroot';

describe('CSS', () => {
  it('site.css: rule sets named by selectors, keyframes, a media query as a container; small rules packed', async () => {
    const r = await chunkFile(`${wwwroot}/css/site.css`);
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline)).toEqual([
      'rule :root 1-16',
      'rule *, *::before, *::after 18-22',
      'rule body 24-26',
      'rule a 28-30',
      'rule h1:focus 32-34',
      'rule .btn 37-47',
      'rule .btn:disabled 49-52',
      'rule .btn-primary 54-59',
      'rule .btn-primary:hover:not(:disabled) 61-63',
      'rule .btn-link 65-72',
      'rule .catalog-header 75-80',
      'rule .product-grid 82-86',
      'rule .product-card 88-97',
      'rule .product-card:hover 99-101',
      'rule .product-card--sold-out 103-105',
      'rule .product-card__image img, .product-card__placeholder 107-114',
      'rule .product-card__placeholder 116-121',
      'rule .product-card__category 123-128',
      'rule .product-card__name 130-133',
      'rule .product-card__price 135-137',
      'rule .pager 139-145',
      'rule .cart-badge 148-152',
      'rule .cart-badge__count 154-162',
      'rule .cart-badge--flash .cart-badge__count 164-166',
      'keyframes @keyframes cart-pulse 168-172',
      'rule .cart-lines 174-177',
      'rule .cart-lines th, .cart-lines td 179-184',
      'rule .cart-lines .num 186-188',
      'rule .cart-lines input[type="number"] 190-192',
      'rule .checkout 195-199',
      'rule .checkout-form fieldset 201-205',
      'rule .checkout-form label 207-210',
      'rule .checkout-form .row 212-215',
      'rule .totals 217-221',
      'rule .totals .discount 223-225',
      'rule .totals .total 227-232',
      'rule .validation-message, .warning 234-237',
      'rule .hint 239-242',
      'rule .alert-error 245-250',
      'rule .toast, .mini-receipt 252-262',
      'rule .toast--error 264-266',
      'rule .offline-banner 268-276',
      'rule #blazor-error-ui 278-288',
      'rule #blazor-error-ui .dismiss 290-295',
      'rule .hero 298-303',
      'rule .hero__promo 305-308',
      'rule .featured 310-316',
      'rule .category-links 318-322',
      'media @media (max-width: 800px) 324-328',
      '  rule .checkout 325-327',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-17 rule :root',
      '18-53 members *, *::before, *::after, body, a, h1:focus, .btn, .btn:disabled',
      '54-87 members .btn-primary, .btn-primary:hover:not(:disabled), .btn-link, .catalog-header, .product-grid',
      '88-122 members .product-card, .product-card:hover, .product-card--sold-out, .product-card__image img, .product-card__placeholder, .product-card__placeholder',
      '123-153 members .product-card__category, .product-card__name, .product-card__price, .pager, .cart-badge',
      '154-193 members .cart-badge__count, .cart-badge--flash .cart-badge__count, @keyframes cart-pulse, .cart-lines, .cart-lines th, .cart-lines td, .cart-lines .num, .cart-lines input[type="number"]',
      '194-233 members .checkout, .checkout-form fieldset, .checkout-form label, .checkout-form .row, .totals, .totals .discount, .totals .total',
      '234-267 members .validation-message, .warning, .hint, .alert-error, .toast, .mini-receipt, .toast--error',
      '268-304 members .offline-banner, #blazor-error-ui, #blazor-error-ui .dismiss, .hero',
      '305-328 members .hero__promo, .featured, .category-links, @media (max-width: 800px)',
    ]);
  });

  it('a big media query is a container: its rules are chunks with the query as context', async () => {
    const rules = Array.from({ length: 12 }, (_, i) => `  .col-${i} {\n    flex: ${i};\n    order: ${i};\n  }\n`).join('\n');
    const r = await chunkText('wwwroot/grid.css', `@media (min-width: 1024px) {\n${rules}}\n\n@supports (display: grid) {\n  .grid { display: grid; }\n}\n`);
    const lines = outlineLines(r.outline);
    expect(lines[0]).toBe('media @media (min-width: 1024px) 1-61');
    expect(lines[1]).toBe('  rule .col-0 2-5');
    expect(lines.slice(-2)).toEqual(['supports @supports (display: grid) 63-65', '  rule .grid 64-64']);
    const inMedia = r.chunks.filter((c) => c.startLine < 61);
    expect(inMedia.length).toBeGreaterThan(1);
    expect(inMedia.every((c) => c.header === '@media (min-width: 1024px)')).toBe(true);
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('native CSS nesting resolves like SCSS; comments and strings with braces do not confuse the scanner', async () => {
    const r = await chunkText('wwwroot/nest.css', '/* { not a block } */\n.card {\n  content: "}{";\n  &:hover { color: red; }\n  .title { font-weight: 600; }\n}\n');
    expect(outlineLines(r.outline)).toEqual(['rule .card 2-6', '  rule .card:hover 4-4', '  rule .card .title 5-5']);
  });
});

describe('SCSS', () => {
  it('nesting resolved (`&__image` → `.product-card__image`), media inside a rule, mixins, functions, placeholders, variables', async () => {
    const r = await chunkFile('fixtures/chunking/web/_product-card.scss');
    expect(outlineLines(r.outline)).toEqual([
      'import @use "sass:math" 1-1',
      'import @use "../abstracts/tokens" as t 2-2',
      'variable $card-radius 4-4',
      'variable $card-gap 5-5',
      'mixin @mixin elevated 7-9',
      'placeholder %card-base 11-14',
      'rule .product-card 16-51',
      '  rule .product-card__image 22-25',
      '  rule .product-card__price, .product-card__old-price 27-30',
      '  rule .product-card--sold-out 32-38',
      '    rule .product-card--sold-out .badge 35-37',
      '  rule .product-card:hover 40-42',
      '  media @media (max-width: 640px) 44-50',
      '    rule .product-card__image 47-49',
      'function @function rem 53-55',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-15 members @use "sass:math", @use "../abstracts/tokens" as t, $card-radius, $card-gap, @mixin elevated, %card-base',
      '16-52 members .product-card__image, .product-card__price, .product-card__old-price, .product-card--sold-out, .product-card:hover, @media (max-width: 640px)',
      '53-55 function @function rem',
    ]);
    expect(r.chunks[1].header).toBe('.product-card');
    expect(findNode(r.outline, (n) => n.kind === 'media')!.children[0].name).toBe('.product-card__image');
  });

  it('selector resolution: `&` is the parent, plain selectors are descendants, lists multiply', () => {
    expect(resolveSelectors(['.a', '.b'], ['&:hover', '.c'])).toEqual(['.a:hover', '.a .c', '.b:hover', '.b .c']);
    expect(resolveSelectors(null, ['.x', '.y'])).toEqual(['.x', '.y']);
    expect(resolveSelectors(['.card'], ['& + &'])).toEqual(['.card + .card']);
  });
});

describe('JavaScript', () => {
  it('cart.js: a class with its methods, top-level functions, member keys', async () => {
    const r = await chunkFile(`${wwwroot}/js/cart.js`);
    expect(outlineLines(r.outline)).toEqual([
      'class CartBadge 8-26 key=CartBadge',
      '  constructor constructor 9-13 key=CartBadge.constructor',
      '  method find 15-18 key=CartBadge.find',
      '  method flash 20-25 key=CartBadge.flash',
      'function flashBadge 28-30 key=flashBadge',
      'function saveSnapshot 32-39 key=saveSnapshot',
      'function loadSnapshot 41-58 key=loadSnapshot',
      'function showMiniReceipt 60-68 key=showMiniReceipt',
      'function registerOfflineHandler 70-100 key=registerOfflineHandler',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-27 class CartBadge',
      '28-31 function flashBadge',
      '32-40 function saveSnapshot',
      '41-59 function loadSnapshot',
      '60-69 function showMiniReceipt',
      '70-103 function registerOfflineHandler',
    ]);
    expect(r.chunks[3].symbol).toEqual({ kind: 'function', name: 'loadSnapshot', memberKey: 'loadSnapshot' });
  });

  it('default exports, class fields and accessors, CommonJS and prototype assignments, test suites', async () => {
    const text = [
      'export default class extends Base {', //  1
      '  static count = 0;', //                    2
      '  handler = () => {};', //                  3
      '  get total() { return 1; }', //            4
      '  set total(v) {}', //                      5
      '}', //                                      6
      'exports.helper = function () {};', //       7
      'Cart.prototype.clear = function () {};', // 8
      "describe('cart', () => {", //               9
      "  it('adds an item', () => {});", //        10
      '});', //                                    11
      'export const LIMIT = 5, onSave = () => {};', // 12
      'const local = 1;', //                       13
    ].join('\n');
    const r = await chunkText('src/misc.js', text);
    expect(outlineLines(r.outline)).toEqual([
      'class default 1-6 key=default',
      '  field count 2-2 key=default.count',
      '  method handler 3-3 key=default.handler',
      '  property get total 4-4 key=default.get total',
      '  property set total 5-5 key=default.set total',
      'function helper 7-7 key=helper',
      'method Cart.clear 8-8 key=Cart.clear',
      'test describe cart 9-11',
      '  test it adds an item 10-10',
      'const LIMIT 12-12 key=LIMIT',
      'function onSave 12-12 key=onSave',
    ]);
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('order-response.js: an object literal of accessors, methods and function-valued keys (CommonJS prototype), nested objects of functions as containers, a doc comment a blank line above its member', async () => {
    const r = await chunkFile('fixtures/chunking/web/order-response.js');
    expect(outlineLines(r.outline)).toEqual([
      'object proto 5-50 key=proto',
      '  property get status 9-15 key=proto.get status', // its doc comment one blank line above
      '  property set status 17-20 key=proto.set status',
      '  property set body 22-28 key=proto.set body',
      '  method redirect 30-33 key=proto.redirect',
      '  method vary 35-37 key=proto.vary',
      '  object helpers 44-49 key=proto.helpers',
      '    method toJSON 45-47 key=proto.helpers.toJSON',
      '    method inspect 48-48 key=proto.helpers.inspect',
    ]);
    expect(expectWellFormed(r)).toEqual([]);
    // Another file's anonymous objects are named by the file (an index file by its folder), data-only objects are not nodes.
    const m = await chunkText('src/api/cart/index.js', "module.exports = {\n  total (items) {\n    return items.length\n  },\n  limit: 5\n}\nexport default { methods: { save () {} }, data: { a: 1 } }\nconst config = { a: 1, b: 2 }\n");
    expect(outlineLines(m.outline)).toEqual([
      'object cart 1-6 key=cart',
      '  method total 2-4 key=cart.total',
      'object cart 7-7 key=cart',
      '  object methods 7-7 key=cart.methods',
      '    method save 7-7 key=cart.methods.save',
    ]);
  });

  it('a truncated file still gives the declarations before the break', async () => {
    const text = fs.readFileSync(path.join(sampleDir, 'src/Contoso.Shop.Web/wwwroot/js/cart.js'), 'utf8');
    const r = await chunkText('wwwroot/js/cart.js', text.slice(0, text.indexOf('function loadSnapshot') + 60));
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline).slice(0, 3)).toEqual(['class CartBadge 8-26 key=CartBadge', '  constructor constructor 9-13 key=CartBadge.constructor', '  method find 15-18 key=CartBadge.find']);
    expect(expectWellFormed(r)).toEqual([]);
  });
});

describe('TypeScript', () => {
  it('interfaces, type aliases, enums, consts, an arrow function, a class, overloads and a namespace', async () => {
    // .mts: the same language and grammar as .ts, but outside the project's `test/**/*.ts` typecheck.
    const r = await chunkFile('fixtures/chunking/web/order-api.mts');
    expect(outlineLines(r.outline)).toEqual([
      'interface OrderLineDto 4-10 key=OrderLineDto',
      'interface OrderDto 12-17 key=OrderDto',
      'type OrderStatus 19-19 key=OrderStatus',
      'enum RetryMode 21-25 key=RetryMode',
      'const DEFAULT_PAGE_SIZE 27-27 key=DEFAULT_PAGE_SIZE',
      'function isFinal 29-30 key=isFinal',
      'class OrderApiClient 32-56 key=OrderApiClient',
      '  field baseUrl 34-34 key=OrderApiClient.baseUrl',
      '  constructor constructor 36-38 key=OrderApiClient.constructor',
      '  method getOrder 40-44 key=OrderApiClient.getOrder',
      '  method cancelOrder 46-51 key=OrderApiClient.cancelOrder',
      '  property get retryMode 53-55 key=OrderApiClient.get retryMode',
      'function formatOrderNumber 58-62 key=formatOrderNumber',
      'namespace Paging 64-73 key=Paging',
      '  interface Page 65-68 key=Paging.Page',
      '  function pageCount 70-72 key=Paging.pageCount',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-11 interface OrderLineDto',
      '12-18 interface OrderDto',
      '19-20 type OrderStatus',
      '21-26 enum RetryMode',
      '27-31 members DEFAULT_PAGE_SIZE, isFinal',
      '32-57 class OrderApiClient',
      '58-63 function formatOrderNumber',
      '64-73 namespace Paging',
    ]);
    // The JSDoc comment belongs to the interface it documents.
    expect(r.lines[3]).toBe('/** An order line as the API returns it. */');
  });

  it('a class bigger than one chunk is cut into its members, each with the class header as context', async () => {
    const methods = Array.from({ length: 10 }, (_, i) => `  /** Step ${i}. */\n  step${i}(input: number): number {\n${Array.from({ length: 6 }, (_, k) => `    input += ${k};`).join('\n')}\n    return input;\n  }\n`).join('\n');
    const r = await chunkText('src/pipeline.ts', `export class Pipeline<T> extends Base implements Runner {\n${methods}}\n`);
    const steps = r.chunks.filter((c) => c.symbol?.memberKey?.startsWith('Pipeline.step'));
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.every((c) => c.header === 'class Pipeline<T> extends Base implements Runner')).toBe(true);
    expect(findNode(r.outline, (n) => n.memberKey === 'Pipeline.step3')).toMatchObject({ kind: 'method', startLine: 35, endLine: 44 });
  });
  it('syntax newer than the grammar (export type *, variance annotations, typeof this) costs no member: the statement is repaired and the error counted', async () => {
    const r = await chunkFile('fixtures/chunking/web/newer-syntax.mts');
    expect(outlineLines(r.outline)).toEqual([
      'interface Ref 5-8 key=Ref',
      'class Runner 10-33 key=Runner',
      '  field deferred 11-11 key=Runner.deferred',
      '  method update 13-22 key=Runner.update',
      '  method subscribe 24-28 key=Runner.subscribe',
      '  method start 30-32 key=Runner.start',
      'function createRunner 35-37 key=createRunner',
    ]);
    expect(r.outline?.parseErrors).toBeGreaterThan(0);
    expect(rewriteScript('let d: (typeof this.q)[number];')).toBe('let d: (typeof _his.q)[number];');
    expect(rewriteScript('interface R<in out S extends object, out E> {')).toBe('interface R<       S extends object,     E> {');
    expect(rewriteScript('export type * from "./t";')).toBe('export      * from "./t";');
    expect(rewriteScript('for (const k in obj) x(k);')).toBeNull();
  });
});

describe('TSX and JSX', () => {
  it('order-table.tsx: props interface, components (function, arrow, memo, forwardRef), a TSX generic arrow, a class component', async () => {
    const r = await chunkFile('fixtures/chunking/web/order-table.tsx');
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline)).toEqual([
      'interface OrderTableProps 5-9 key=OrderTableProps',
      'type SortKey 11-11 key=SortKey',
      'function firstOf 13-14 key=firstOf',
      'function StatusBadge 16-18 key=StatusBadge',
      'function OrderRow 20-29 key=OrderRow',
      'function FilterInput 31-33 key=FilterInput',
      'function OrderTable 35-51 key=OrderTable',
      'class OrderTableErrorBoundary 53-63 key=OrderTableErrorBoundary',
      '  field state 54-54 key=OrderTableErrorBoundary.state',
      '  method getDerivedStateFromError 56-58 key=OrderTableErrorBoundary.getDerivedStateFromError',
      '  method render 60-62 key=OrderTableErrorBoundary.render',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-10 interface OrderTableProps',
      '11-19 members SortKey, firstOf, StatusBadge',
      '20-30 function OrderRow',
      '31-34 function FilterInput',
      '35-52 function OrderTable',
      '53-63 class OrderTableErrorBoundary',
    ]);
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('TSX needs its own grammar: TypeScript\'s reads the same component as casts and loses it', async () => {
    const text = fs.readFileSync(path.join(fixtureDir, 'web/order-table.tsx'), 'utf8');
    const asTs = await chunkText('src/order-table.ts', text);
    expect(outlineLines(asTs.outline)).not.toContain('function OrderTable 35-51 key=OrderTable');
  });

  it('cart-summary.jsx: function, arrow and default-exported components, an exported const', async () => {
    const r = await chunkFile('fixtures/chunking/web/cart-summary.jsx');
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline)).toEqual([
      'const CART_EVENT 4-4 key=CART_EVENT',
      'function LineItem 6-12 key=LineItem',
      'function CartTotal 14-17 key=CartTotal',
      'function CartSummary 19-32 key=CartSummary',
    ]);
    expect(chunkLines(r.chunks).slice(1)).toEqual(['6-13 function LineItem', '14-18 function CartTotal', '19-32 function CartSummary']);
  });

  it('.mts, .cts, .mjs and .cjs are TypeScript and JavaScript, indexed by default', async () => {
    for (const [ext, lang] of [['.mts', 'typescript'], ['.cts', 'typescript'], ['.mjs', 'javascript'], ['.cjs', 'javascript'], ['.tsx', 'tsx'], ['.jsx', 'jsx']]) {
      expect(languageOf(`src/a${ext}`), ext).toBe(lang);
      expect(DEFAULT_INCLUDE_EXTENSIONS, ext).toContain(ext);
    }
    const r = await chunkText('lib/retry.cjs', 'const wait = (ms) => new Promise((r) => setTimeout(r, ms));\nmodule.exports.retry = async function retry(fn) {\n  await wait(1);\n  return fn();\n};\n');
    expect(outlineLines(r.outline)).toEqual(['function wait 1-1 key=wait', 'function retry 2-5 key=retry']);
  });
});

describe('HTML', () => {
  it('offline.html: landmarks, ids and classes as selector-like names, scripts, the title as file context', async () => {
    const r = await chunkFile(`${wwwroot}/offline.html`);
    expect(outlineLines(r.outline)).toEqual([
      'element head 3-8',
      'element body.landing 9-43',
      '  element header.hero 10-13',
      '  element main.content 15-23',
      '    element section#saved-cart 16-20',
      '      element ul#saved-cart-items 19-19',
      '    element button#retry.btn.btn-primary 22-22',
      '  script script /js/cart.js 25-25',
      '  script script 26-42',
    ]);
    expect(r.outline!.fileContext).toEqual(['title=Offline - Contoso Shop']);
    expect(chunkLines(r.chunks)).toEqual(['1-8 element head', '9-14 element header.hero', '15-24 element main.content', '25-25 script script /js/cart.js', '26-44 script script']);
    expect(r.chunks[2].header.split('\n')).toEqual(['title=Offline - Contoso Shop', 'body.landing', 'class=content', 'id=saved-cart', 'class=btn btn-primary', 'id=retry', 'id=saved-cart-items']);
    expect(r.chunks[3].header).toContain('src=/js/cart.js');
  });

  it('inline scripts and styles are outlined in place; forms carry their action and field names', async () => {
    const text = [
      '<!DOCTYPE html>', //                                    1
      '<html>', //                                             2
      '<head>', //                                             3
      '  <style>', //                                          4
      '    .checkout { display: grid; }', //                   5
      '  </style>', //                                         6
      '</head>', //                                            7
      '<body>', //                                             8
      '  <form id="checkout" action="/checkout" method="post">', // 9
      '    <input name="email" type="email" />', //            10
      '  </form>', //                                          11
      '  <script>', //                                         12
      '    function submitOrder(form) {', //                   13
      '      form.submit();', //                               14
      '    }', //                                              15
      '  </script>', //                                        16
      '</body>', //                                            17
      '</html>', //                                            18
    ].join('\n');
    const r = await chunkText('wwwroot/checkout.html', text);
    expect(outlineLines(r.outline)).toEqual([
      'element head 3-7',
      '  style style 4-6',
      '    rule .checkout 5-5',
      'element body 8-17',
      '  element form#checkout 9-11',
      '  script script 12-16',
      '    function submitOrder 13-15 key=submitOrder',
    ]);
    expect(findNode(r.outline, (n) => n.name === 'form#checkout')!.facts).toEqual(['id=checkout', 'action=/checkout', 'method=post', 'name=email']);
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('unclosed and stray tags still give a partial outline', async () => {
    const r = await chunkText('wwwroot/broken.html', '<body>\n  <main id="app">\n    <section class="a">\n  </div>\n  <nav>\n');
    expect(r.parseFallback).toBe(false);
    expect(findNode(r.outline, (n) => n.name === 'main#app')).toBeTruthy();
    expect(expectWellFormed(r)).toEqual([]);
  });
});
