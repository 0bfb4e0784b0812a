// The browser client's models (python/diabolo/server/client/models.mjs and each game's
// model.mjs) in Node: from each audience's first view and the events alone, the model's
// view equals the engine's after every move (tests/test_client_models_node.py writes the
// games). Prints {wrong: [...], moves: [...]} as JSON.
//
//     node tests/client_models_check.mjs CLIENT_FOLDER GAMES.json

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [client, file] = process.argv.slice(2);
const { ClientModel } = await import(pathToFileURL(join(client, "models.mjs")).href);
const sorted = (value) =>
    Array.isArray(value)
        ? value.map(sorted)
        : value && typeof value === "object"
          ? Object.fromEntries(
                Object.keys(value)
                    .sort()
                    .map((key) => [key, sorted(value[key])]),
            )
          : value;
const same = (a, b) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const wrong = [];
const moves = [];
for (const game of JSON.parse(readFileSync(file, "utf8"))) {
    const module = await import(pathToFileURL(join(client, "games", game.game, "model.mjs")).href);
    const Model = Object.values(module).find(
        (value) => typeof value === "function" && value.prototype instanceof ClientModel,
    );
    const models = game.first.map((view) => new Model(view));
    game.steps.forEach((step, move) => {
        models.forEach((model, audience) => {
            model.apply(step.events[audience]);
            if (!same(model.view, step.views[audience])) wrong.push(`${game.game} move ${move} audience ${audience}`);
        });
    });
    moves.push(game.steps.length);
}
console.log(JSON.stringify({ wrong: wrong.slice(0, 5), moves }));
