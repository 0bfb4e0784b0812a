//! The safe API's promises: errors carry the status, code and clause and change nothing;
//! clones are independent; bad input is refused by name.
use diabolo::{Bot, Game, Status, Turn, Viewer};

#[test]
fn a_refused_move_names_its_rule_and_changes_nothing() {
    let game = Game::new("schacht", Some(r#"{"players": 3}"#)).unwrap();
    let mut state = game.new_state(5).unwrap();
    let before = state.to_json();
    let error = state.apply_move(0, "G4<").unwrap_err();
    assert_eq!(error.status, Status::IllegalMove);
    assert_eq!((error.code.as_str(), error.clause.as_str()), ("not_your_turn", "S2.2"));
    assert!(!error.code.is_empty() && !error.message.is_empty());
    assert!(error.to_string().contains("S2.2"));
    assert_eq!(state.to_json(), before);
    assert_eq!(state.legal_actions(7).unwrap_err().status, Status::BadPlayer);
    assert_eq!(
        state.observation(Viewer::Seat(9)).unwrap_err().status,
        Status::BadPlayer
    );
    assert_eq!(state.apply_move(1, "R3\0<").unwrap_err().status, Status::BadArgument);
    assert_eq!(
        Game::new("schacht", Some("{players")).unwrap_err().status,
        Status::BadOption
    );
    assert_eq!(game.state_from_json("[]").unwrap_err().status, Status::BadState);
    assert_eq!(Bot::new(&game, "oracle", None).unwrap_err().status, Status::BadOption);
}

#[test]
fn states_are_values_and_round_trip_through_json() {
    let game = Game::new("duvelen", None).unwrap();
    let mut state = game.new_state(3).unwrap();
    assert_eq!(state.turn(), Turn::Simultaneous);
    let copy = state.clone();
    let seat = state.pending_seats()[0];
    let action = state.legal_actions(seat).unwrap().next().unwrap();
    state.apply_action(seat, action).unwrap();
    assert_eq!((state.version(), copy.version()), (1, 0));
    let again = game.state_from_json(&state.to_json()).unwrap();
    assert_eq!(
        again.observation(Viewer::Spectator).unwrap(),
        state.observation(Viewer::Spectator).unwrap()
    );
    let mask = state.legal_mask(seat, game.num_actions()).unwrap();
    assert_eq!(
        mask.iter().filter(|&&legal| legal).count(),
        state.legal_actions(seat).unwrap().len()
    );
    assert_eq!(
        state.observation_tensor(seat).unwrap(),
        state.position().unwrap().observation_tensor(seat).unwrap()
    );
}

#[test]
fn a_game_played_to_the_end_by_bots_ends_with_scores() {
    let game = Game::new("schacht", Some(r#"{"players": 3}"#)).unwrap();
    let bot = Bot::new(&game, "heuristic", None).unwrap();
    let mut state = game.new_state(11).unwrap();
    let mut seed = 0;
    // The lowest pending seat moves (Schacht's doubler bets are made by every seat at once, S5.3).
    while let Some(&seat) = state.pending_seats().first() {
        let choice = bot.choose(&state, seat, seed).unwrap();
        let action = choice
            .action
            .unwrap_or_else(|| state.legal_actions(seat).unwrap().next().unwrap());
        state.apply_action(seat, action).unwrap();
        seed += 1;
    }
    assert!(state.is_terminal() && state.turn() == Turn::Terminal);
    assert_eq!(state.scores().len(), 3);
    let mut position = state.position().unwrap();
    let root = game.new_state(11).unwrap().position().unwrap();
    position.resample_from(&root, 0, 9).unwrap();
    assert!(!position.is_terminal());
}
