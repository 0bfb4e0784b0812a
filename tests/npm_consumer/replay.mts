// The golden transcripts replayed through the npm package as a TypeScript program would use
// it: `import ... from "diabolo"` resolved by the package's exports and typed by its
// diabolo.d.mts under `tsc --strict` (tests/test_wasm.py installs the packed tarball into a
// fresh folder, compiles this file there and runs it with Node). Prints "NAME LINES" per
// transcript; a difference throws with the file and line.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { type Bot, type BotChoice, type Game, loadDiabolo, type State, WAIT } from "diabolo";

const folder: string = process.argv[2] ?? ".";
const engine = await loadDiabolo();

function expect(same: boolean, where: string): void {
    if (!same) throw new Error(`differs: ${where}`);
}

function replay(file: string): number {
    const lines = readFileSync(path.join(folder, file), "utf8").trimEnd().split("\n");
    const header = (i: number, tag: string): string => {
        const line = lines[i] ?? "";
        expect(line.startsWith(`${tag} `), `${file}:${i + 1} the ${tag} line`);
        return line.slice(tag.length + 1);
    };
    expect(lines[0] === "diabolo.transcript/1", `${file}:1`);
    const game: Game = engine.load(header(1, "game"), JSON.parse(header(2, "options")));
    const state: State = game.newState(BigInt(header(4, "seed")), JSON.parse(header(3, "deal")));
    const bots = new Map<string, Bot>();
    for (let i = 5; i < lines.length; ++i) {
        const line = lines[i] as string;
        const where = `${file}:${i + 1}`;
        const [tag = "", seatText = "", ...rest] = line.split(" ");
        const seat = Number(seatText);
        const after = rest.join(" ");
        if (tag === "bot") {
            // bot KIND SEAT SEED ACTION DELAY NOTATION: `seat` is the kind here, `rest` the others.
            const [botSeat = "", seed = "", ...answer] = rest;
            const bot: Bot = bots.get(seatText) ?? game.bot(seatText);
            bots.set(seatText, bot);
            const choice: BotChoice | null = bot.choose(state, Number(botSeat), BigInt(seed));
            const got = choice === null ? `${WAIT} 0 -` : `${choice.action} ${choice.delayUs} ${choice.notation}`;
            expect(got === answer.join(" "), where);
        } else if (tag === "legal") {
            expect([seat, ...state.legalActions(seat)].join(" ") === line.slice(6), where);
        } else if (tag === "move") {
            state.apply(seat, after);
        } else if (tag === "events") {
            expect(state.eventsJSON(seat) === after, where);
        } else if (tag === "view") {
            expect(state.observationJSON(seat) === after, where);
        } else if (tag === "scores") {
            expect(`scores ${Array.from(state.scores()).join(" ")}` === line, where);
        } else if (tag === "end") {
            for (const bot of bots.values()) bot.free();
            state.free();
            game.free();
            return i - 4;
        } else {
            throw new Error(`${where}: an unknown line`);
        }
    }
    throw new Error(`${file}: no end line`);
}

for (const file of readdirSync(folder)
    .filter((name: string) => name.endsWith(".txt"))
    .sort()) {
    console.log(`${file} ${replay(file)}`);
}
