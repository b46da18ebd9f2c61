// Types of pglite-internals.mjs (plain JavaScript: the embedded database thread loads it by path).
export declare const PINNED_PGLITE_VERSION: string;
export declare function checkInternals(pg: object): void;
export declare function exclusive<T>(pg: object, inTx: boolean, fn: () => Promise<T>): Promise<T>;
export declare function serializerFor(pg: object, oid: number): ((v: unknown) => string) | undefined;
