//! The golden transcripts (tests/golden/transcripts/*.txt, described in tests/transcripts.py)
//! replayed through the safe API: every bot's answer, legal action, event, view and score
//! must be the line's, character for character, as in Python, C, C#, Cython and JavaScript.
//! `DIABOLO_TRANSCRIPTS` names another folder.
use std::fs;
use std::path::PathBuf;

use diabolo::{Bot, Game, Viewer};

fn folder() -> PathBuf {
    match std::env::var_os("DIABOLO_TRANSCRIPTS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/golden/transcripts"),
    }
}

fn viewer(seat: &str) -> Viewer {
    match seat.parse::<i64>().expect("a seat") {
        -1 => Viewer::Spectator,
        seat => Viewer::Seat(seat as usize),
    }
}

/// Replays one transcript; returns the number of lines checked.
fn replay(path: &PathBuf) -> usize {
    let text = fs::read_to_string(path).expect("a transcript");
    let mut lines = text.lines();
    let name = path.display();
    assert_eq!(lines.next(), Some("diabolo.transcript/1"), "{}", name);
    let mut header = |tag: &str| -> String {
        let line = lines.next().unwrap_or_default();
        let rest = line.strip_prefix(tag).and_then(|rest| rest.strip_prefix(' '));
        rest.unwrap_or_else(|| panic!("{}: no {} line", name, tag)).to_string()
    };
    let (game_name, options, deal, seed) = (header("game"), header("options"), header("deal"), header("seed"));
    let game = Game::new(&game_name, Some(&options)).expect("the header's game");
    let mut state = game
        .deal(seed.parse().expect("a seed"), &deal)
        .expect("the header's deal");
    let mut bot: Option<(String, Bot)> = None;
    let mut checked = 0;
    for (number, line) in lines.enumerate() {
        let at = format!("{} line {}", name, number + 6);
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        checked += 1;
        match tag {
            "bot" => {
                let fields: Vec<&str> = rest.split(' ').collect();
                let (kind, seat, seed) = (
                    fields[0],
                    fields[1].parse().expect("a seat"),
                    fields[2].parse().expect("a seed"),
                );
                if bot.as_ref().map_or(true, |(held, _)| held != kind) {
                    bot = Some((kind.to_string(), Bot::new(&game, kind, None).expect("a bot")));
                }
                let choice = bot
                    .as_ref()
                    .expect("a bot")
                    .1
                    .choose(&state, seat, seed)
                    .expect("a choice");
                let action = choice.action.unwrap_or(-1).to_string();
                let delay = choice.delay_us.to_string();
                let notation = choice.notation.unwrap_or_else(|| "-".to_string());
                assert_eq!(
                    [action.as_str(), delay.as_str(), notation.as_str()],
                    fields[3..6],
                    "{}",
                    at
                );
            }
            "legal" => {
                let (seat, ids) = rest.split_once(' ').unwrap_or((rest, ""));
                let legal: Vec<String> = state
                    .legal_actions(seat.parse().expect("a seat"))
                    .expect("a seat")
                    .map(|id| id.to_string())
                    .collect();
                assert_eq!(legal.join(" "), ids, "{}", at);
            }
            "move" => {
                let (seat, notation) = rest.split_once(' ').expect("a move");
                state
                    .apply_move(seat.parse().expect("a seat"), notation)
                    .unwrap_or_else(|e| panic!("{}: {}", at, e));
            }
            "events" => {
                let (seat, events) = rest.split_once(' ').expect("events");
                assert_eq!(state.events(viewer(seat)).expect("events"), events, "{}", at);
            }
            "view" => {
                let (seat, view) = rest.split_once(' ').expect("a view");
                assert_eq!(state.observation(viewer(seat)).expect("a view"), view, "{}", at);
            }
            "scores" => {
                let scores: Vec<String> = state.scores().iter().map(|s| s.to_string()).collect();
                assert_eq!(scores.join(" "), rest, "{}", at);
            }
            "end" => return checked,
            _ => panic!("{}: unknown line {}", at, line),
        }
    }
    panic!("{}: no end line", name)
}

#[test]
fn every_golden_transcript_replays_exactly() {
    let mut paths: Vec<PathBuf> = fs::read_dir(folder())
        .expect("the transcripts' folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().map_or(false, |e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6, "too few transcripts in {}", folder().display());
    for path in &paths {
        let lines = replay(path);
        println!("{} {}", path.file_name().unwrap().to_string_lossy(), lines);
        assert!(lines > 20);
    }
}
