// The bounds of a contract file the user names (--contract FILE), in a module of their own so that
// the options' help (src/process/config.ts) names them without loading the reader (user-contract.ts).

/** A contract file larger than this is refused before it is read (openapi.yaml is ~20 KiB). */
export const MAX_CONTRACT_BYTES = 5 * 1024 * 1024;
/** Nesting of a contract's mappings and sequences (openapi.yaml: 12 levels), checked by the parser as it goes. */
export const MAX_CONTRACT_DEPTH = 64;
/** Values (members and elements) walked in a contract, YAML aliases counted each time they are used. */
export const MAX_CONTRACT_VALUES = 2_000_000;
