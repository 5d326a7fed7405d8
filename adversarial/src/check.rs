//! The harness from a `#[test]`: one call runs every mutation class
//! against your targets and fails the test, with the table and the shrunk
//! inputs, when any verdict is not the one owed.
//!
//! ```no_run
//! // tests/attack.rs of a game's crate
//! adversarial::count_allocations!();
//!
//! # #[derive(Clone, Debug, Default, PartialEq, codec::Serialize)]
//! # struct Input { #[serialize(range = -100..=100)] steer: i8 }
//! # #[derive(Clone, Debug, PartialEq, codec::Packet)]
//! # #[packet(protocol_id = 0x600D_6A3E, max_bytes = 64)]
//! # enum GamePacket { Input(Input) }
//! #[test]
//! fn every_lie_is_refused() {
//!     adversarial::check::campaign(vec![Box::new(
//!         adversarial::target::packet::<GamePacket>("game"),
//!     )])
//!     .cases(10_000)
//!     .run();
//! }
//! ```

use crate::alloc::require_counting;
use crate::campaign::{self, Budget, Config, Report};
use crate::mutate::Class;
use crate::report::{campaign_table, hex, Listed};
use crate::scenario::StateClass;
use crate::target::{EndpointTarget, Target};
use std::fmt::Write as _;
use std::path::PathBuf;

/// A campaign to run from a test; see [`campaign()`].
pub struct Campaign {
    config: Config,
}

/// Every class against `targets`, 10,000 cases per target with seed 1
/// unless told otherwise.
#[must_use]
pub fn campaign(targets: Vec<Box<dyn Target>>) -> Campaign {
    Campaign {
        config: Config {
            targets,
            classes: Class::ALL.to_vec(),
            endpoints: Vec::new(),
            state_classes: StateClass::ALL.to_vec(),
            seed: 1,
            budget: Budget::Cases(10_000),
            crash_dir: None,
            progress: false,
            shrink: true,
            isolation: None,
            jobs: 1,
        },
    }
}

/// Every lie told across packets against `endpoints`, 10,000
/// conversations per endpoint with seed 1 unless told otherwise:
///
/// ```no_run
/// // tests/endpoint.rs of a game's crate
/// adversarial::count_allocations!();
///
/// #[test]
/// fn every_lie_across_packets_is_refused() {
///     let config = adversarial::scenario::config();
///     adversarial::check::endpoints(vec![Box::new(adversarial::target::endpoint(
///         "link",
///         config,
///         |config| link::Endpoint::new(config.clone(), 0.0).expect("a valid configuration"),
///     ))])
///     .run();
/// }
/// ```
#[must_use]
pub fn endpoints(endpoints: Vec<Box<dyn EndpointTarget>>) -> Campaign {
    campaign(Vec::new()).endpoints(endpoints)
}

impl Campaign {
    /// Also attacks these endpoints with conversations, each lie of
    /// [`StateClass::ALL`] in turn.
    #[must_use]
    pub fn endpoints(mut self, endpoints: Vec<Box<dyn EndpointTarget>>) -> Self {
        self.config.endpoints = endpoints;
        self
    }

    /// Only these lies across packets.
    #[must_use]
    pub fn state_classes(mut self, classes: &[StateClass]) -> Self {
        self.config.state_classes = classes.to_vec();
        self
    }

    /// Judges samples on this many threads (1 unless told); the same seed
    /// gives the same report for any number.
    #[must_use]
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.config.jobs = jobs.max(1);
        self
    }

    /// This many cases per target.
    ///
    /// # Panics
    ///
    /// When `cases` is 0, as `--cases 0` is refused: nothing would be judged.
    #[must_use]
    #[track_caller]
    pub fn cases(mut self, cases: u64) -> Self {
        assert!(
            cases > 0,
            "check::campaign(..).cases(0) would judge nothing: give at least 1 case"
        );
        self.config.budget = Budget::Cases(cases);
        self
    }

    /// This many seconds in all, split between the targets.
    ///
    /// # Panics
    ///
    /// When `seconds` is not a finite number above 0, as `--seconds` refuses.
    #[must_use]
    #[track_caller]
    pub fn seconds(mut self, seconds: f64) -> Self {
        assert!(
            seconds.is_finite() && seconds > 0.0,
            "check::campaign(..).seconds({seconds}) would judge nothing: give a number of seconds above 0"
        );
        self.config.budget = Budget::Seconds(seconds);
        self
    }

    /// The seed of every random choice: the same seed, the same cases.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.config.seed = seed;
        self
    }

    /// Only these classes.
    #[must_use]
    pub fn classes(mut self, classes: &[Class]) -> Self {
        self.config.classes = classes.to_vec();
        self
    }

    /// Also writes each failing input under `dir/<target>/`.
    #[must_use]
    pub fn crash_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.config.crash_dir = Some(dir.into());
        self
    }

    /// Runs it and returns the report, whatever the verdicts.
    ///
    /// # Panics
    ///
    /// When this binary does not count allocations: add
    /// `adversarial::count_allocations!();` to the test file, or the bound on
    /// what a read may allocate would hold trivially.
    #[must_use]
    #[track_caller]
    pub fn report(self) -> Report {
        require_counting("adversarial::check::campaign");
        campaign::run(&self.config)
    }

    /// Runs it, and fails the test unless every verdict was the one owed.
    /// When it passes it prints the table, which the test runner shows with
    /// `cargo test -- --nocapture`: what ran, per class, and how many cases.
    ///
    /// # Panics
    ///
    /// With the table and every kept failure (shrunk, in hex) when a case
    /// did not get its verdict; when no case was judged at all (no target,
    /// or no class with a field to lie in), saying why; and as
    /// [`Campaign::report`] does. The panic points at the caller's line.
    #[track_caller]
    pub fn run(self) -> Report {
        require_counting("adversarial::check::campaign");
        let report = campaign::run(&self.config);
        if let Some(why) = campaign::judged_nothing(&self.config, &report) {
            panic!("{why}");
        }
        assert!(report.passed(), "{}", failure_message(&report));
        print!("{}", campaign_table(&report, Listed::Below));
        report
    }
}

/// The table, then each kept failure with its input.
fn failure_message(report: &Report) -> String {
    let failed: u64 = report
        .rows
        .iter()
        .map(|(_, _, tally)| tally.cases - tally.as_owed)
        .chain(
            report
                .conversations
                .rows
                .iter()
                .map(|(_, _, tally)| tally.cases - tally.as_owed),
        )
        .sum();
    let mut out = format!(
        "the campaign found {failed} cases without the verdict owed (seed {})\n\n",
        report.seed
    );
    out.push_str(&campaign_table(report, Listed::Below));
    // The reader's own failures first; those the format's known behaviour
    // explains after them, each with its cause.
    let (failures, left_out) = crate::report::shown_failures(report);
    for failure in failures {
        let _ = write!(
            out,
            "\n{} / {}: {:?}\n  lie: {}\n  owed: {:?}\n  input ({} bytes): {}\n",
            failure.target,
            failure.class.name(),
            failure.outcome,
            failure.lie,
            failure.owed,
            failure.bytes.len(),
            hex(&failure.bytes),
        );
        if let Some(file) = &failure.file {
            let _ = writeln!(out, "  written to {}", file.display());
        }
        if let Some(read) = &failure.read {
            let _ = writeln!(out, "  read as: {read}");
        }
        if let Some(why) = failure.cause {
            let words = why.split_whitespace().collect::<Vec<_>>().join(" ");
            let _ = writeln!(out, "  the format's known behaviour: {words}");
        }
    }
    if left_out > 0 {
        let _ = writeln!(
            out,
            "\nand {left_out} more in other fields, each explained the same way"
        );
    }
    out.push_str(&crate::scenario::table::failures_text(
        &report.conversations,
    ));
    out
}
