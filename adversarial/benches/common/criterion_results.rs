//! Shared by the benchmarks of both crates (`codec/benches/stream.rs`
//! includes it by path).
//!
//! Criterion with this project's settings, and the medians it measured in
//! this very run, read back from its own estimates so the closing tables can
//! put codecs side by side.

use criterion::Criterion;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// Medians criterion wrote during this run.
pub struct Results {
    dir: PathBuf,
    started: SystemTime,
}

/// Criterion with short defaults (every one overridable on the command
/// line, e.g. `-- --measurement-time 5`), writing where [`Results`] reads.
pub fn criterion() -> (Criterion, Results) {
    criterion_timed(Duration::from_millis(500), Duration::from_millis(1500))
}

/// The same with other default warm-up and measurement times.
pub fn criterion_timed(warm_up: Duration, measurement: Duration) -> (Criterion, Results) {
    // Benchmarks run from <target>/<profile>/deps/<name>-<hash>.
    let dir = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.join("criterion")))
        .unwrap_or_else(|| PathBuf::from("target/criterion"));
    let c = Criterion::default()
        .warm_up_time(warm_up)
        .measurement_time(measurement)
        .sample_size(30)
        .output_directory(&dir)
        .configure_from_args();
    let started = SystemTime::now();
    (c, Results { dir, started })
}

impl Results {
    /// The median time of one iteration of the benchmark whose id is `id`
    /// (`group/function/parameter`, or `group/function`), in nanoseconds, if
    /// it was measured in this run (a filter on the command line may have
    /// skipped it; an older estimate does not count).
    pub fn median_ns(&self, id: &[&str]) -> Option<f64> {
        let path = id
            .iter()
            .fold(self.dir.clone(), |path, part| path.join(part))
            .join("new")
            .join("estimates.json");
        let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
        if modified < self.started {
            return None;
        }
        let text = std::fs::read_to_string(&path).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        json.get("median")?.get("point_estimate")?.as_f64()
    }
}

/// `x` with three significant digits, or a dash when not measured.
pub fn figure(x: Option<f64>) -> String {
    match x {
        None => "-".to_string(),
        Some(x) if x >= 100.0 => format!("{x:.0}"),
        Some(x) if x >= 10.0 => format!("{x:.1}"),
        Some(x) => format!("{x:.2}"),
    }
}
