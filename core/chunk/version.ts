// The chunker's version: part of the chunking fingerprint an index records, so a change to what
// the extractors, the builder, the language table or the grammars produce makes every index
// re-chunk its files. Owns the number only; where the fingerprint is kept is the indexer's business.
//
// A forgotten bump cannot reach main: test/chunker-version.test.ts chunks every golden fixture and
// every sample-workspace file (at two chunk sizes), hashes each file's chunks and outline, and
// compares them with the hashes recorded for this version in test/fixtures/chunker-version.json,
// together with the table rows and the grammar packages' versions that shape chunks. While
// CHUNKER_VERSION equals the recorded version any difference fails the test, and the recorder
// (HCI_UPDATE_GOLDEN=1) refuses to write new hashes under an old version: the only way to record
// changed output is to raise this number. Checking output, not source, is what makes it robust: a
// refactor that changes nothing needs no bump, and a grammar upgrade that changes trees does.

/** Bump when any extractor, the builder or a grammar changes what it produces: indexes re-chunk every file. */
export const CHUNKER_VERSION = 12;
