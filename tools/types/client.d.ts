// What the browser client leaves on `window` for the browser tests to read
// (python/diabolo/server/client/table.mjs, replay.mjs and sound.mjs); tsconfig.json reads it.
interface Window {
    /** The page's hooks: its state, counters and `ready` (table.mjs, replay.mjs). */
    diabolo: Record<string, unknown>;
    /** How often each sound was asked for while sounds were on (sound.mjs). */
    diaboloSounds: Record<string, number>;
}
