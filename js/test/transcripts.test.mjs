// The golden transcripts (tests/golden/transcripts/*.txt, format diabolo.transcript/1, described
// in tests/transcripts.py) through the JS API: each file's seeded game is replayed line by line
// exactly as the C checker (check_transcript in cpp/tests/capi/test_capi.c) and Python
// (tests/test_transcripts.py) replay it. The bots' answers (action id, delay in microseconds,
// notation), the legal ids and the scores must be the same, and the events and views the same
// JSON text, character for character. A mismatch names the file and its line.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { WAIT } from "../diabolo.mjs";
import { loadEngine } from "../testkit/helpers.mjs";

const FORMAT = "diabolo.transcript/1";
const HEADER = ["game", "options", "deal", "seed"];
const directory = path.resolve(fileURLToPath(new URL("../../tests/golden/transcripts", import.meta.url)));
const files = readdirSync(directory)
    .filter((name) => name.endsWith(".txt"))
    .sort();

const engine = await loadEngine();

/** Where two texts first differ, for a readable message about a long JSON line. */
function firstDifference(actual, expected) {
    let i = 0;
    while (i < actual.length && i < expected.length && actual[i] === expected[i]) ++i;
    const around = (text) => text.slice(Math.max(0, i - 40), i + 40);
    return `first difference at character ${i}: got ...${around(actual)}..., expected ...${around(expected)}...`;
}

/** Checks one line's raw JSON text: `where` names the file and the line. */
function sameText(actual, expected, where) {
    if (actual !== expected) assert.fail(`${where}: the engine's JSON differs, ${firstDifference(actual, expected)}`);
}

/**
 * Replays the transcript `name`: returns the number of lines checked after the header and
 * the file's number of lines. Each assertion message begins with "<file>:<line>".
 */
function replayTranscript(name) {
    const lines = readFileSync(path.join(directory, name), "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    assert.equal(lines[0], FORMAT, `${name}:1: not a ${FORMAT} file`);
    const header = {};
    HEADER.forEach((tag, i) => {
        const line = lines[i + 1] ?? "";
        assert.ok(line.startsWith(`${tag} `), `${name}:${i + 2}: expected the header line "${tag} ...", got ${line}`);
        header[tag] = line.slice(tag.length + 1);
    });
    // The API takes objects and writes them as JSON: the engine gets the header's text as is.
    const options = JSON.parse(header.options);
    const deal = JSON.parse(header.deal);
    assert.equal(JSON.stringify(options), header.options, `${name}:3: options are not compact JSON`);
    assert.equal(JSON.stringify(deal), header.deal, `${name}:4: the deal is not compact JSON`);
    const game = engine.load(header.game, options);
    const state = game.newState(BigInt(header.seed), deal);
    const bots = new Map();
    let checked = 0;
    let ended = false;
    try {
        for (let index = HEADER.length + 1; index < lines.length; ++index) {
            const line = lines[index];
            const where = `${name}:${index + 1}`;
            assert.ok(!ended, `${where}: a line after "end"`);
            const space = line.indexOf(" ");
            const tag = space < 0 ? line : line.slice(0, space);
            const rest = space < 0 ? "" : line.slice(space + 1);
            // The seat and what follows it ("view -1 {...}": -1 and "{...}").
            const seatEnd = rest.indexOf(" ");
            const seat = Number.parseInt(rest, 10);
            const after = seatEnd < 0 ? "" : rest.slice(seatEnd + 1);
            try {
                if (tag === "bot") {
                    const fields = rest.split(" ");
                    assert.equal(fields.length, 6, "a bot line has six fields");
                    const [kind, botSeat, seed, action, delayUs, notation] = fields;
                    if (!bots.has(kind)) bots.set(kind, game.bot(kind));
                    const choice = bots.get(kind).choose(state, Number(botSeat), BigInt(seed));
                    const answer =
                        choice === null ? `${WAIT} 0 -` : `${choice.action} ${choice.delayUs} ${choice.notation}`;
                    assert.equal(answer, `${action} ${delayUs} ${notation}`, "the bot's action, delay and notation");
                } else if (tag === "legal") {
                    assert.equal(
                        [seat, ...state.legalActions(seat)].join(" "),
                        rest,
                        `the legal action ids of seat ${seat}`,
                    );
                } else if (tag === "move") {
                    state.apply(seat, after);
                } else if (tag === "events") {
                    sameText(state.eventsJSON(seat), after, where);
                } else if (tag === "view") {
                    sameText(state.observationJSON(seat), after, where);
                } else if (tag === "scores") {
                    assert.equal(Array.from(state.scores()).join(" "), rest, "the scores");
                } else if (line === "end") {
                    ended = true;
                } else {
                    assert.fail(`an unknown line: ${line.slice(0, 40)}`);
                }
            } catch (error) {
                if (error instanceof assert.AssertionError && error.message.startsWith(where)) throw error;
                const message = `${where}: ${error.message} (line: ${line.slice(0, 200)})`;
                throw new assert.AssertionError({ message, actual: error.actual, expected: error.expected });
            }
            checked += 1;
        }
        assert.ok(ended, `${name}: the last line is not "end"`);
    } finally {
        for (const bot of bots.values()) bot.free();
        state.free();
        game.free();
    }
    return { checked, lines: lines.length };
}

test("the golden transcripts are there", () => {
    assert.ok(files.length > 0, `no transcript (*.txt) in ${directory}`);
});

for (const name of files) {
    test(`the golden transcript ${name} replays line by line`, (t) => {
        const { checked, lines } = replayTranscript(name);
        t.diagnostic(`${name}: ${checked} lines checked`);
        // Every line after the five of the header was checked.
        assert.equal(checked, lines - 1 - HEADER.length, `${name}: lines checked`);
        assert.ok(checked > 100, `${name}: only ${checked} lines`);
    });
}
