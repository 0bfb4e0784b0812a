// The few Node.js declarations replay.mts uses: @types/node comes from the npm registry,
// which the test's machines do not reach, and diabolo's own types are what the test checks.
declare module "node:fs" {
    export function readFileSync(path: string, encoding: "utf8"): string;
    export function readdirSync(path: string): string[];
}
declare module "node:path" {
    const path: { join(...parts: string[]): string };
    export default path;
}
declare const process: { argv: string[] };
