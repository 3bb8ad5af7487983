// Access levels and visibility levels are stored codes, at home in src/store/levels.ts where
// every layer (entities included) may import them. Policy's rules are written in them, so
// policy/ and its callers may keep importing them from here.
export * from '../store/levels.js';
