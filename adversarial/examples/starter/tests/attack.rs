//! `cargo test -- --nocapture` shows the table of what ran.

adversarial::count_allocations!();

#[test]
fn every_lie_gets_the_verdict_it_is_owed() {
    adversarial::check::campaign(my_game::attack::targets())
        .cases(10_000)
        .run();
}
