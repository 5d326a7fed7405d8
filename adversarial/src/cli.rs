//! The `adversarial` command line, for any set of targets: the
//! `adversarial` binary runs it on this crate's targets, and a user's own
//! binary runs it on theirs in a few lines:
//!
//! ```no_run
//! // src/bin/attack.rs of a game's crate
//! //!
//! # #[derive(Clone, Debug, Default, PartialEq, codec::Serialize)]
//! # struct Input { #[serialize(range = -100..=100)] steer: i8 }
//! # #[derive(Clone, Debug, PartialEq, codec::Packet)]
//! # #[packet(protocol_id = 0x600D_6A3E, max_bytes = 64)]
//! # enum GamePacket { Input(Input) }
//! fn main() -> std::process::ExitCode {
//!     adversarial::cli::main(vec![Box::new(
//!         adversarial::target::packet::<GamePacket>("game"),
//!     )])
//! }
//! ```
//!
//! `campaign`, `replay`, `decode`, `inspect`, `seed-corpus` and `targets`
//! then work on those targets exactly as on the built-in ones.

use crate::campaign::{self, Budget, Config, Shard};
use crate::corpus;
use crate::files::{read_input, Stored};
use crate::flood;
use crate::mutate::Class;
use crate::replay::{files_under, replay, replayed_by, target_for_path, Replayed, Summary};
use crate::report;
use crate::scenario::campaign::replay_file_in;
use crate::scenario::record::EXTENSION;
use crate::scenario::StateClass;
use crate::target::{EndpointTarget, Inspection, Target, Verdict};
use crate::worker::{self, Isolation};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Builds valid packets, breaks them on purpose, and checks that every
/// reader refuses each broken packet with the error it deserves: never a
/// panic, never an accepted packet that re-encodes to other bytes, never
/// more memory than a small constant times the packet's length.
///
/// Start with `adversarial campaign`; `adversarial targets` lists the
/// readers under attack.
///
/// Exit status, the same for every command:
///   0  everything as expected (decode and inspect: every file accepted)
///   1  a file refused (decode, inspect), a wrong verdict found, or a file
///      skipped because no target could be assigned to it
///   2  a usage or I/O error
#[derive(Parser)]
#[command(name = "adversarial", version, verbatim_doc_comment)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every target times every mutation class, then a table per target.
    ///
    /// Each sample is a valid packet from the target's generator; each class
    /// rewrites one field of it (or cuts, appends, flips) and knows the
    /// verdict the reader owes. Endpoint targets (the connection layer) get
    /// conversations instead: an honest sender's packets, fragmented, with
    /// one lie told across them (--state-class), every datagram judged.
    /// Exits 0 only when every verdict was the one owed and nothing
    /// panicked. Failing cases are shrunk and written under the crash
    /// directory (a conversation as a .conversation.json file that
    /// `replay` runs again).
    ///
    /// Examples:
    ///   adversarial campaign                       # all targets, about a minute
    ///   adversarial campaign --seconds 600 --seed 7
    ///   adversarial campaign --target scenes --class duplicate-index --cases 100000
    ///   adversarial campaign --json campaign.json  # the table for machines
    #[command(verbatim_doc_comment)]
    Campaign(CampaignArgs),
    /// Merges the shards of a campaign into the report of the whole.
    ///
    /// Each shard ran `campaign --shard I/N --json FILE` with the same
    /// seed, budget, targets and classes, on any machine. The merge takes
    /// the samples in order, cuts them where the whole campaign would have,
    /// builds the failing cases again and shrinks and writes them: the
    /// same table, JSON (but for times), page and exit code as the
    /// campaign run whole. Exits 0 when every verdict was the one owed, 1
    /// when one was not, 2 when the files are not every shard of one
    /// campaign.
    ///
    /// Example:
    ///   for i in 0 1 2; do adversarial campaign --cases 100000 --shard $i/3 --json shard-$i.json; done
    ///   adversarial merge shard-*.json --json campaign.json --html campaign.html
    #[command(verbatim_doc_comment)]
    Merge(MergeArgs),
    /// Runs stored inputs and prints one verdict line each, then a summary.
    ///
    /// Files or directories (walked recursively). A .conversation.json file
    /// is a conversation the campaign wrote: it runs against the endpoint
    /// target it names (or --target), and fails when a promise breaks. The target comes from
    /// --target or from the nearest directory named after one
    /// (corpus/scenes/..., corpus/crashes/save/...); a file with neither is
    /// reported and skipped. Exits 1 on any panic, death, hang or accepted
    /// input that re-encodes differently, and on any skipped file.
    Replay {
        /// The target for every input.
        #[arg(long)]
        target: Option<String>,
        /// One JSON object per file, then one with the summary.
        #[arg(long)]
        jsonl: bool,
        /// Replay in this process instead of a worker process (a reader
        /// that aborts or hangs then ends the replay).
        #[arg(long)]
        in_process: bool,
        /// Files or directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Decodes files: the value, or the refusal and where it happened.
    ///
    /// A refusal names its cause, its bit offset and the field being read.
    /// Exits 0 when every file is accepted, 1 when one is refused or
    /// skipped, 2 when a file cannot be read.
    Decode(FileArgs),
    /// Encodes a `decode --json` document back into the bytes it describes.
    ///
    /// Reads one document (FILE, or standard input when FILE is `-` or
    /// absent) and writes the bytes to --output, or to standard output when
    /// that is not a terminal. The target is --target, else the document's
    /// "target". Every value is checked as the reader would check it (ranges,
    /// lengths, the format's rules), and the bytes written are decoded again
    /// before they are written. A leaf that shows the wire beside the value
    /// ({"value", "wire"}, {"value", "ieee754"}, {"value", "utf16"}, a
    /// packet type's {"name", "wire"}) must agree with itself: the wire is
    /// what is sent, so a document that edits the value alone is refused,
    /// naming the field. Exits 0 when encoded, 1 when the document does not
    /// describe a value the target accepts, 2 on a usage or I/O error.
    ///
    /// Examples:
    ///   adversarial decode --json corpus/save/seed-003.bin > save.json
    ///   adversarial encode save.json --output save.bin
    ///   adversarial decode --json corpus/scenes/seed-000.bin | adversarial encode > again.bin
    #[command(verbatim_doc_comment)]
    Encode(EncodeArgs),
    /// Prints the field map of files, up to the point of failure.
    ///
    /// One line per field: offset, width, name, kind, value; then the
    /// verdict. Exit status as for decode.
    Inspect(FileArgs),
    /// Regenerates corpus/<target>/seed-*.bin from the generators, then
    /// every corpus file's golden file.
    ///
    /// Uses a fixed seed. Regressions (corpus/crashes/) are never touched,
    /// except for their golden files.
    SeedCorpus {
        /// The corpus directory.
        #[arg(long, default_value = "corpus")]
        dir: PathBuf,
        /// Seeds per target.
        #[arg(long, default_value_t = 16)]
        count: usize,
        /// The random seed.
        #[arg(long, default_value_t = corpus::DEFAULT_SEED)]
        seed: u64,
        /// Leave the seeds alone and rewrite only the golden files: what
        /// `decode --json` says of every corpus file, which `cargo test`
        /// compares. Run it when a change to what packets mean is on
        /// purpose, and review the diff.
        #[arg(long)]
        update_golden: bool,
    },
    /// Lists the targets.
    Targets,
    /// Floods a live UDP server on 127.0.0.1 with honest and malicious
    /// packets of one target.
    ///
    /// Honest clients send valid packets at --rate per second each while an
    /// attacker sends every class's cases as fast as the machine allows,
    /// for --seconds. The server must acknowledge each packet it accepts
    /// with the datagram's FNV-1a fingerprint (8 bytes, little-endian). Its
    /// control socket must answer `stats` with JSON counters and
    /// `verdicts` with the verdicts given since the last request, one line
    /// each: "PORT FINGERPRINT_HEX accepted|CAUSE" (the game example's
    /// server does all three).
    ///
    /// Exit status: 0 when every malicious datagram the server read got the
    /// verdict it was owed (accepted, or refused with the owed cause) and
    /// every honest packet that reached the server was accepted and
    /// acknowledged; 1 when not, or when the server stopped answering, or
    /// honest packets were lost beyond what the kernel dropped; 2 on a
    /// usage or socket error.
    ///
    /// Example (the game example's server in another terminal):
    ///   cargo run --release -p game-protocol --bin server -- 4000 4001 60
    ///   cargo run --release -p game-protocol --features attack --bin attack -- \
    ///       flood --target game --endpoint 127.0.0.1:4000 --control 127.0.0.1:4001 --seconds 50
    #[command(verbatim_doc_comment)]
    Flood(FloodArgs),
    /// Runs cases for a campaign's parent process (see adversarial::worker).
    #[command(name = "__worker", hide = true)]
    Worker {
        /// The target whose reader runs.
        #[arg(long)]
        target: String,
    },
}

#[derive(Args)]
struct CampaignArgs {
    /// Wall-clock budget in seconds, shared so that every target gets the
    /// same number of samples (a scene costs more than a save).
    #[arg(long, default_value_t = 60.0, conflicts_with = "cases", value_parser = positive_seconds)]
    seconds: f64,
    /// Instead of a time budget, this many cases per target. The same seed
    /// and --cases give the same cases and the same table (but for cases
    /// per second) whatever --jobs is.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    cases: Option<u64>,
    /// Threads judging samples, each with its own worker processes.
    /// Default: every core.
    #[arg(long, value_name = "N", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    jobs: Option<usize>,
    /// Seed of every random choice; the same seed gives the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these targets (repeat the flag); all by default.
    #[arg(long = "target")]
    targets: Vec<String>,
    /// Only these classes (repeat the flag); all by default.
    #[arg(long = "class", value_enum)]
    classes: Vec<Class>,
    /// Only these lies across packets, told to the endpoint targets
    /// (repeat the flag); all by default. See `targets` for the names.
    #[arg(long = "state-class", value_name = "CLASS", value_parser = state_class)]
    state_classes: Vec<StateClass>,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also write a self-contained HTML page: settings and seed, a chart of
    /// verdicts by class, every target's table, and each failing case drawn
    /// as a packet picture with its replay command.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Where shrunk failing inputs go, as <dir>/<target>/campaign-<class>-<hash>.bin.
    #[arg(long, default_value = "corpus/crashes")]
    crash_dir: PathBuf,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    workers: WorkerArgs,
    /// Run only part I of N of the campaign (0/4 ... 3/4): the samples and
    /// conversations whose number is I modulo N, with the same seed. Needs
    /// --json, the file `merge` reads; failing cases are shrunk and
    /// written by `merge`, not here.
    #[arg(long, value_name = "I/N", requires = "json")]
    shard: Option<Shard>,
}

#[derive(Args)]
struct MergeArgs {
    /// The shards' JSON files (`campaign --shard I/N --json FILE`), every
    /// shard of one campaign once.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write the whole campaign's results as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also write the whole campaign's HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Where shrunk failing inputs go, as for `campaign`.
    #[arg(long, default_value = "corpus/crashes")]
    crash_dir: PathBuf,
    #[command(flatten)]
    workers: WorkerArgs,
}

/// Where cases run: the flags of `campaign` and `merge`.
#[derive(Args)]
struct WorkerArgs {
    /// Run the cases in this process, under catch_unwind only. By default
    /// they run in a worker process, restarted whenever a reader or an
    /// endpoint aborts, runs out of memory, overflows its stack or hangs;
    /// each such case is then a verdict of its own (died, hung), shrunk
    /// and kept like any failure. In process is faster and survives
    /// panics alone.
    #[arg(long)]
    in_process: bool,
    /// How long one case may run in a worker before it is killed and
    /// counted as hung.
    #[arg(long, default_value_t = 2000, value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    case_deadline_ms: u64,
    /// The most heap each worker may hold, in MiB: a reader that asks for
    /// more (a length bomb's `vec![x; claimed]`) dies of it, reported as
    /// out of memory ("died" column, `oom` in the failure) instead of
    /// filling the machine's memory.
    #[arg(long, default_value_t = crate::alloc::DEFAULT_WORKER_MEMORY_MB, value_name = "MB",
          value_parser = clap::value_parser!(u64).range(16..))]
    worker_memory_mb: u64,
}

#[derive(Args)]
struct FloodArgs {
    /// The target whose packets are sent.
    #[arg(long)]
    target: String,
    /// The server's game socket (127.0.0.1 only).
    #[arg(long)]
    endpoint: std::net::SocketAddr,
    /// The server's control socket, asked for `verdicts` every 20 ms and
    /// for `stats` each second and at the end.
    #[arg(long)]
    control: std::net::SocketAddr,
    /// How long to send.
    #[arg(long, default_value_t = 10.0, value_parser = positive_seconds)]
    seconds: f64,
    /// Packets per second from each honest client.
    #[arg(long, default_value_t = 60)]
    rate: u32,
    /// Honest clients.
    #[arg(long, default_value_t = 4)]
    clients: usize,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the report, with the memory samples, as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Send every packet over a link endpoint (reliable 1.0: a header with
    /// acks on each datagram, large packets as fragments); the server must
    /// speak it with the same sizes (the game example's `server ... link`).
    #[arg(long)]
    link: bool,
    /// With --link: the bytes of each fragment, and the size above which a
    /// packet is fragmented. The largest packet is the target's.
    #[arg(long, default_value_t = 400, value_name = "BYTES", requires = "link",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    link_fragment_size: usize,
    /// With --link: 16 more source ports send reassembly bombs (the first
    /// fragment of packet after packet, never the rest), each fragment
    /// again with other bytes, owed `stored` then `duplicate-fragment`.
    #[arg(long, requires = "link")]
    stateful: bool,
}

#[derive(Args)]
struct EncodeArgs {
    /// The target that writes the bytes; by default the document's "target".
    #[arg(long)]
    target: Option<String>,
    /// Where the bytes go; by default standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The document; standard input when `-` or absent.
    file: Option<PathBuf>,
}

#[derive(Args)]
struct FileArgs {
    /// The target that reads the files; by default, the nearest directory
    /// named after one, as for replay.
    #[arg(long)]
    target: Option<String>,
    /// Output JSON, one document per file: the packet type and every field
    /// by name, floats as numbers with their IEEE-754 bit patterns.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Output the same JSON on one line per file.
    #[arg(long)]
    jsonl: bool,
    /// Also draw the packet's bit layout as an SVG picture into this file:
    /// one row per 32 bits, each field a coloured span with its name and
    /// value, padding and checks marked, the refusing field in red (one
    /// input file only).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Files or directories.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// The targets a command line may name: packet targets and endpoint
/// targets, each a default set and fixtures (deliberately broken ones that
/// run only when named with `--target`, never in the default campaign).
#[derive(Default)]
pub struct Registry {
    /// Packet readers attacked by default.
    pub targets: Vec<Box<dyn Target>>,
    /// Packet readers attacked only when named.
    pub fixtures: Vec<Box<dyn Target>>,
    /// Endpoints attacked by default.
    pub endpoints: Vec<Box<dyn EndpointTarget>>,
    /// Endpoints attacked only when named.
    pub endpoint_fixtures: Vec<Box<dyn EndpointTarget>>,
}

impl Registry {
    fn names(&self) -> String {
        let names: Vec<&str> = self
            .targets
            .iter()
            .map(|t| t.name())
            .chain(self.endpoints.iter().map(|e| e.name()))
            .collect();
        names.join(", ")
    }

    fn is_endpoint(&self, name: &str) -> bool {
        self.endpoints
            .iter()
            .chain(&self.endpoint_fixtures)
            .any(|e| e.name() == name)
    }

    fn all_endpoints(&self) -> Vec<&dyn EndpointTarget> {
        self.endpoints
            .iter()
            .chain(&self.endpoint_fixtures)
            .map(AsRef::as_ref)
            .collect()
    }

    /// The packet and endpoint targets called `names` (the default sets
    /// when empty).
    #[allow(clippy::type_complexity)]
    fn take_all(
        mut self,
        names: &[String],
    ) -> Result<(Vec<Box<dyn Target>>, Vec<Box<dyn EndpointTarget>>), String> {
        if names.is_empty() {
            return Ok((self.targets, self.endpoints));
        }
        let (endpoint_names, packet_names): (Vec<String>, Vec<String>) =
            names.iter().cloned().partition(|n| self.is_endpoint(n));
        let mut pool = std::mem::take(&mut self.endpoints);
        pool.append(&mut self.endpoint_fixtures);
        let mut endpoints = Vec::new();
        for name in &endpoint_names {
            if let Some(i) = pool.iter().position(|e| e.name() == name) {
                endpoints.push(pool.remove(i));
            }
        }
        let packets = if packet_names.is_empty() {
            Vec::new()
        } else {
            self.take(&packet_names)?
        };
        Ok((packets, endpoints))
    }

    fn position(&self, name: &str) -> Result<(bool, usize), String> {
        let find = |list: &[Box<dyn Target>]| list.iter().position(|t| t.name() == name);
        find(&self.targets)
            .map(|i| (false, i))
            .or_else(|| find(&self.fixtures).map(|i| (true, i)))
            .ok_or_else(|| format!("no target named {name:?}; the targets are {}", self.names()))
    }

    fn named(&self, name: &str) -> Result<&dyn Target, String> {
        let (fixture, index) = self.position(name)?;
        let list = if fixture {
            &self.fixtures
        } else {
            &self.targets
        };
        list.get(index)
            .map(AsRef::as_ref)
            .ok_or_else(|| format!("no target named {name:?}"))
    }

    /// The targets called `names` (all of the default set when empty).
    fn take(mut self, names: &[String]) -> Result<Vec<Box<dyn Target>>, String> {
        if names.is_empty() {
            return Ok(self.targets);
        }
        let mut chosen = Vec::new();
        for name in names {
            let (fixture, index) = self.position(name)?;
            let list = if fixture {
                &mut self.fixtures
            } else {
                &mut self.targets
            };
            chosen.push(list.remove(index));
        }
        Ok(chosen)
    }

    fn all(&self) -> Vec<&dyn Target> {
        self.targets
            .iter()
            .chain(&self.fixtures)
            .map(AsRef::as_ref)
            .collect()
    }
}

/// A budget in seconds: finite and above zero, or nothing would run.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        Ok(_) => Err("must be a number of seconds above 0".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// A lie across packets, by its name.
fn state_class(text: &str) -> Result<StateClass, String> {
    StateClass::ALL
        .into_iter()
        .find(|c| c.name() == text)
        .ok_or_else(|| {
            let names: Vec<&str> = StateClass::ALL.iter().map(|c| c.name()).collect();
            format!("no such class; the classes are {}", names.join(", "))
        })
}

/// Opens `path` for writing now, so that a path that cannot be written
/// fails before the campaign runs rather than after.
fn output_file(path: Option<&Path>) -> Result<Option<(&Path, std::fs::File)>, String> {
    path.map(|path| {
        std::fs::File::create(path)
            .map(|file| (path, file))
            .map_err(|e| format!("{}: {e}", path.display()))
    })
    .transpose()
}

/// Writes `text` to an output file opened by [`output_file`].
fn finish_output((path, mut file): (&Path, std::fs::File), text: &str) -> Result<(), String> {
    use std::io::Write;
    file.write_all(text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Cases in worker processes of this binary, unless `--in-process`.
fn isolation(args: &WorkerArgs) -> Result<Option<Isolation>, String> {
    if args.in_process {
        return Ok(None);
    }
    let deadline = std::time::Duration::from_millis(args.case_deadline_ms);
    Isolation::this_binary(&["__worker"], deadline)
        .map(|isolation| Some(isolation.memory_mb(args.worker_memory_mb)))
        .map_err(|e| e.to_string())
}

fn run_campaign(registry: Registry, args: CampaignArgs) -> Result<bool, String> {
    let html = output_file(args.html.as_deref())?;
    let json = output_file(args.json.as_deref())?;
    let (targets, endpoints) = registry.take_all(&args.targets)?;
    let state_classes = if args.state_classes.is_empty() {
        StateClass::ALL.to_vec()
    } else {
        args.state_classes
    };
    let classes = if args.classes.is_empty() {
        Class::ALL.to_vec()
    } else {
        args.classes
    };
    let budget = args
        .cases
        .map_or(Budget::Seconds(args.seconds), Budget::Cases);
    let shard = args.shard.unwrap_or_default();
    let config = Config {
        isolation: isolation(&args.workers)?,
        targets,
        classes,
        endpoints,
        state_classes,
        seed: args.seed,
        budget,
        // A shard's failures are shrunk and written by `merge`, which
        // knows which of them the whole campaign keeps.
        crash_dir: shard.is_whole().then_some(args.crash_dir),
        progress: !args.quiet,
        shrink: shard.is_whole(),
        jobs: args.jobs.unwrap_or_else(campaign::cores),
    };
    let (report, record) = campaign::run_shard(&config, shard);
    if let Some(why) = campaign::judged_nothing(&config, &report) {
        return Err(why);
    }
    let mut document = report::campaign_json(&report);
    if !shard.is_whole() {
        eprintln!(
            "shard {shard}: the table below is this part's; `merge` of every shard's --json gives the whole"
        );
        if let Some(object) = document.as_object_mut() {
            object.insert("shard".into(), crate::shards::shard_json(&config, &record));
        }
    }
    publish(&config, &report, &document, html, json)
}

/// Prints the report's failures and table, and writes its page and JSON
/// when asked; whether it passed.
fn publish(
    config: &Config,
    report: &campaign::Report,
    document: &serde_json::Value,
    html: Option<(&Path, std::fs::File)>,
    json: Option<(&Path, std::fs::File)>,
) -> Result<bool, String> {
    eprint!("{}", report::failures_text(report));
    print!("{}", report::campaign_table(report, report::Listed::Above));
    if let Some(output) = html {
        let settings = crate::page::Settings {
            budget: match config.budget {
                Budget::Seconds(s) => format!("{s} s"),
                Budget::Cases(n) => format!("{n} cases per target"),
            } + &format!(", {} jobs", config.jobs),
            isolation: if config.isolation.is_some() {
                "worker processes"
            } else {
                "in process"
            }
            .to_string(),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            program: std::env::args().next().unwrap_or_else(program_name),
        };
        let page = crate::page::campaign_html(report, &settings, |failure| {
            crate::page::failure_picture(&config.targets, failure)
        });
        finish_output(output, &page)?;
    }
    if let Some(output) = json {
        let text = serde_json::to_string_pretty(document).map_err(|e| e.to_string())?;
        finish_output(output, &text)?;
    }
    Ok(report.passed())
}

fn run_merge(registry: Registry, args: &MergeArgs) -> Result<bool, String> {
    let html = output_file(args.html.as_deref())?;
    let json = output_file(args.json.as_deref())?;
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let document: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(crate::shards::read(&document).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    crate::shards::check(&files)?;
    let Some(plan) = files.first().map(|f| &f.plan) else {
        return Err("no shard to merge".into());
    };
    let names: Vec<String> = plan
        .targets
        .iter()
        .chain(&plan.endpoints)
        .cloned()
        .collect();
    let (targets, endpoints) = registry.take_all(&names)?;
    let config = Config {
        isolation: isolation(&args.workers)?,
        targets,
        classes: plan.classes.clone(),
        endpoints,
        state_classes: plan.state_classes.clone(),
        seed: plan.seed,
        budget: plan.budget,
        crash_dir: Some(args.crash_dir.clone()),
        progress: false,
        shrink: true,
        jobs: 1,
    };
    let report = crate::shards::merge(&config, &files)?;
    let document = report::campaign_json(&report);
    publish(&config, &report, &document, html, json)
}

fn run_replay(
    registry: &Registry,
    target: Option<String>,
    in_process: bool,
    jsonl: bool,
    paths: &[PathBuf],
) -> Result<bool, String> {
    let isolation = if in_process {
        None
    } else {
        let deadline = std::time::Duration::from_secs(5);
        Some(Isolation::this_binary(&["__worker"], deadline).map_err(|e| e.to_string())?)
    };
    let mut workers: Vec<(&str, worker::Worker<'_>)> = Vec::new();
    let named = target.as_deref().filter(|n| registry.is_endpoint(n));
    let fixed = target
        .as_deref()
        .filter(|n| !registry.is_endpoint(n))
        .map(|n| registry.named(n))
        .transpose()?;
    let all = registry.all();
    let files = files_under(paths)?;
    if files.is_empty() {
        return Err("no input files found".into());
    }
    let mut summary = Summary::default();
    let endpoints = registry.all_endpoints();
    for file in files {
        if file.to_string_lossy().ends_with(EXTENSION) {
            let (name, failure) = replay_file_in(&file, &endpoints, named, isolation.as_ref())?;
            summary.files += 1;
            let verdict = match &failure {
                None => "every datagram's verdict as owed, every promise kept".to_string(),
                Some(f) => {
                    summary.failures += 1;
                    format!("FAIL {} at datagram {}: {}", f.kind.name(), f.step, f.what)
                }
            };
            if jsonl {
                println!(
                    "{}",
                    serde_json::json!({
                        "file": file.display().to_string(),
                        "endpoint": name,
                        "failure": failure.as_ref().map(|f| serde_json::json!({
                            "broken": f.kind.name(), "step": f.step, "what": f.what,
                        })),
                    })
                );
            } else {
                println!("{} [{name}]: {verdict}", file.display());
            }
            continue;
        }
        let Some(target) = fixed.or_else(|| target_for_path(&file, &all)) else {
            summary.skipped += 1;
            let why = "no target in its path; use --target";
            if jsonl {
                println!(
                    "{}",
                    serde_json::json!({"file": file.display().to_string(), "skipped": why})
                );
            } else {
                println!("{}: skipped: {why}", file.display());
            }
            continue;
        };
        let verdict = match (read_input(&file, target)?, &isolation) {
            (Stored::TooLarge { len, max }, _) => Replayed::Refused(Stored::too_large(len, max)),
            (Stored::Bytes(bytes), None) => replay(target, &bytes),
            (Stored::Bytes(bytes), Some(isolation)) => {
                let index = match workers.iter().position(|(n, _)| *n == target.name()) {
                    Some(index) => index,
                    None => {
                        workers
                            .push((target.name(), worker::Worker::new(isolation, target.name())));
                        workers.len() - 1
                    }
                };
                let observation = workers[index].1.observe(&bytes);
                replayed_by(target, &bytes, observation)
            }
        };
        summary.add(&verdict);
        if jsonl {
            println!("{}", report::replayed_json(&file, target.name(), &verdict));
        } else {
            println!("{} [{}]: {verdict}", file.display(), target.name());
        }
    }
    if jsonl {
        println!("{}", report::summary_json(&summary));
    } else {
        println!("{summary}");
    }
    Ok(summary.clean())
}

fn seed_corpus(
    registry: &Registry,
    dir: &std::path::Path,
    count: usize,
    seed: u64,
    update_golden: bool,
) -> Result<bool, String> {
    if !update_golden {
        for target in &registry.targets {
            let n = corpus::write_seeds(target.as_ref(), dir, count, seed)
                .map_err(|e| e.to_string())?;
            println!(
                "{}: {n} seeds in {}",
                target.name(),
                dir.join(target.name()).display()
            );
        }
    }
    let n = corpus::write_golden(dir, &registry.all()).map_err(|e| e.to_string())?;
    println!("{n} golden files under {}", dir.display());
    Ok(true)
}

/// The source ports of `flood --stateful`'s partial packets: well within
/// the game server's 64 clients, beside the honest ones and the attacker.
const STATEFUL_PORTS: usize = 16;

/// The largest packet `flood --link` sends for a target that states none.
const UNSTATED_LINK_PACKET: usize = 1200;

fn run_flood(registry: &Registry, args: &FloodArgs) -> Result<bool, String> {
    let json = output_file(args.json.as_deref())?;
    let target = registry.named(&args.target)?;
    let config = flood::FloodConfig {
        endpoint: args.endpoint,
        control: args.control,
        seconds: args.seconds,
        rate: args.rate,
        honest_clients: args.clients,
        seed: args.seed,
        link: args.link.then(|| {
            let max = target.framing().max_bytes.unwrap_or(UNSTATED_LINK_PACKET);
            link::Config::for_packets(max, args.link_fragment_size)
        }),
        bombers: if args.stateful { STATEFUL_PORTS } else { 0 },
    };
    let report = flood::flood(target, &config).map_err(|e| e.to_string())?;
    println!("{}", report::flood_text(&report));
    if let Some(output) = json {
        let text = serde_json::to_string_pretty(&report::flood_json(&report))
            .map_err(|e| e.to_string())?;
        finish_output(output, &text)?;
    }
    Ok(report.passed())
}

fn run_file(registry: &Registry, args: &FileArgs, table: bool) -> Result<bool, String> {
    let fixed = args
        .target
        .as_ref()
        .map(|n| registry.named(n))
        .transpose()?;
    let all = registry.all();
    let files = files_under(&args.files)?;
    if files.is_empty() {
        return Err("no input files found".into());
    }
    if args.svg.is_some() && files.len() > 1 {
        return Err("--svg draws one file; several were given".into());
    }
    let mut all_accepted = true;
    for file in &files {
        let Some(target) = fixed.or_else(|| target_for_path(file, &all)) else {
            eprintln!(
                "{}: skipped: no target in its path; use --target",
                file.display()
            );
            all_accepted = false;
            continue;
        };
        let (bytes, inspected) = match read_input(file, target)? {
            // Refused on its length, unread: nothing to map or draw.
            Stored::TooLarge { len, max } => (
                Vec::new(),
                Ok(Inspection {
                    map: crate::field_map::FieldMap::default(),
                    failed_in: None,
                    packet_type: None,
                    verdict: Verdict::Refused(Stored::too_large(len, max)),
                    shown: None,
                    listed: Vec::new(),
                }),
            ),
            // A reader that panics is a wrong verdict, reported like one.
            Stored::Bytes(bytes) => {
                let inspected = crate::panics::caught(|| target.inspect(&bytes));
                (bytes, inspected)
            }
        };
        let inspection = match inspected {
            Ok(inspection) => inspection,
            Err(panic) => {
                let message = crate::panics::panic_message(&*panic);
                println!("{}: FAIL panicked: {message}", file.display());
                all_accepted = false;
                continue;
            }
        };
        let canonical = matches!(
            &inspection.verdict,
            Verdict::Accepted { reencoded: Ok(again) } if *again == bytes
        );
        all_accepted &= canonical;
        // The read's allocation peak, held to the target's bound as the
        // campaign holds it.
        let over = match crate::oracle::observe(target, &bytes) {
            crate::oracle::Observation::Read { peak, .. } => {
                let bound = target.allocation_bound(bytes.len());
                (peak > bound).then_some((peak, bound))
            }
            _ => None,
        };
        all_accepted &= over.is_none();
        if let Some(path) = &args.svg {
            let title = format!("{} [{}]", file.display(), target.name());
            std::fs::File::create(path)
                .map(std::io::BufWriter::new)
                .and_then(|mut out| {
                    crate::picture::write_packet_svg(&mut out, &title, &bytes, &inspection)?;
                    std::io::Write::flush(&mut out)
                })
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if args.json || args.jsonl {
            let mut json = if table {
                report::inspection_json(target.name(), &inspection)
            } else {
                report::decoded_json(target.name(), &inspection, target.decode_value(&bytes))
            };
            json["file"] = file.display().to_string().into();
            if json["verdict"] == "accepted" {
                json["reencodes"] = canonical.into();
            }
            if let Some((peak, bound)) = over {
                json["allocated"] = serde_json::json!({"peak": peak, "bound": bound});
            }
            let text = if args.jsonl {
                serde_json::to_string(&json)
            } else {
                serde_json::to_string_pretty(&json)
            };
            println!("{}", text.map_err(|e| e.to_string())?);
        } else {
            if files.len() > 1 {
                println!("{} [{}]", file.display(), target.name());
            }
            if table && !inspection.listed.is_empty() {
                print!("{}", report::listed_table(&inspection.listed));
            } else if table {
                print!("{}", report::fields_table(&inspection.map));
            } else if let Some(value) = target.decode_value(&bytes) {
                print!("{}", crate::value::text(&value));
            } else if let Some(shown) = &inspection.shown {
                println!("{shown}");
            }
            match &inspection.verdict {
                // The campaign's words for an accept that writes other bytes.
                Verdict::Accepted {
                    reencoded: Ok(again),
                } if !canonical => println!(
                    "accepted, but re-encodes to {} bytes that differ from the {} read",
                    again.len(),
                    bytes.len()
                ),
                _ => println!("{}", report::verdict_text(&inspection)),
            }
            if let Some((peak, bound)) = over {
                println!("FAIL allocated {peak} bytes, bound {bound}");
            }
        }
    }
    Ok(all_accepted)
}

/// The name this binary was run as: `adversarial`, or a user's own binary
/// built on [`main`] (`attack`), for its help, its errors and the commands
/// it prints.
fn program_name() -> String {
    std::env::args_os()
        .next()
        .as_deref()
        .map(Path::new)
        .and_then(Path::file_stem)
        .and_then(|n| n.to_str())
        .filter(|n| !n.is_empty())
        .unwrap_or("adversarial")
        .to_owned()
}

/// The command line under `name`: its usage lines, and every example in
/// its help, say `name campaign`, not `adversarial campaign`.
fn command_named(name: &str) -> clap::Command {
    let renamed = |text: Option<&clap::builder::StyledStr>| {
        text.map(|t| t.to_string().replace("adversarial ", &format!("{name} ")))
    };
    let rename = |mut command: clap::Command| {
        if let Some(about) = renamed(command.get_about()) {
            command = command.about(about);
        }
        if let Some(long_about) = renamed(command.get_long_about()) {
            command = command.long_about(long_about);
        }
        command
    };
    // clap keeps names for the process's life; one command line per process.
    let name: &'static str = String::leak(name.to_owned());
    rename(Cli::command().name(name).bin_name(name)).mut_subcommands(rename)
}

/// The largest document `encode` reads: a scene's JSON is far smaller.
const MAX_DOCUMENT_BYTES: u64 = 64 << 20;

fn run_encode(registry: &Registry, args: &EncodeArgs) -> Result<bool, String> {
    use std::io::{IsTerminal, Read, Write};
    let from_stdin = args.file.as_deref().is_none_or(|f| f == Path::new("-"));
    let named = args
        .file
        .as_ref()
        .filter(|_| !from_stdin)
        .map_or_else(|| "standard input".to_owned(), |f| f.display().to_string());
    let mut text = String::new();
    let read = if from_stdin {
        std::io::stdin()
            .take(MAX_DOCUMENT_BYTES + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(args.file.as_deref().unwrap_or(Path::new("-")))
            .and_then(|f| f.take(MAX_DOCUMENT_BYTES + 1).read_to_string(&mut text))
    };
    read.map_err(|e| format!("{named}: {e}"))?;
    if text.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(format!("{named}: longer than {MAX_DOCUMENT_BYTES} bytes"));
    }
    let document: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{named}: not a JSON document: {e}"))?;
    let target = match (args.target.as_deref(), document["target"].as_str()) {
        (Some(name), _) | (None, Some(name)) => registry.named(name)?,
        (None, None) => {
            return Err(format!(
                "{named}: the document names no \"target\"; use --target"
            ))
        }
    };
    let refused = |why: String| {
        eprintln!("{named}: refused: {why}");
        Ok(false)
    };
    let value = &document["value"];
    if value.is_null() {
        return refused(format!(
            "no \"value\": the file it came from was refused ({})",
            document["error"]["cause"]
                .as_str()
                .unwrap_or("no value shown")
        ));
    }
    let bytes = match target.encode_value(value) {
        None => return Err(format!("target {} cannot encode values", target.name())),
        Some(Err(why)) => return refused(why),
        Some(Ok(bytes)) => bytes,
    };
    let inspection = target.inspect(&bytes);
    if !matches!(&inspection.verdict, Verdict::Accepted { reencoded: Ok(again) } if *again == bytes)
    {
        return refused(format!(
            "the bytes are not read back as written: {}",
            report::verdict_text(&inspection)
        ));
    }
    match &args.output {
        Some(path) => std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display())),
        None if std::io::stdout().is_terminal() => Err(
            "standard output is a terminal: write the bytes with --output FILE or a pipe".into(),
        ),
        None => std::io::stdout()
            .lock()
            .write_all(&bytes)
            .map_err(|e| format!("standard output: {e}")),
    }?;
    Ok(true)
}

/// Runs the command line (`std::env::args`) on `targets`, and returns the
/// exit code: 0 when every verdict was the one owed, 1 when one was not,
/// 2 on a usage or I/O error. It refuses to run (exit 2, before reading
/// the arguments) in a binary without `adversarial::count_allocations!()`,
/// whose allocation bound would hold trivially.
#[must_use]
pub fn main(targets: Vec<Box<dyn Target>>) -> ExitCode {
    main_with(Registry {
        targets,
        ..Registry::default()
    })
}

/// As [`main`], with `fixtures`: deliberately broken readers that run only
/// when named (`--target`), never in the default campaign.
#[must_use]
pub fn main_with_fixtures(
    targets: Vec<Box<dyn Target>>,
    fixtures: Vec<Box<dyn Target>>,
) -> ExitCode {
    main_with(Registry {
        targets,
        fixtures,
        ..Registry::default()
    })
}

/// As [`main`], on packet targets and endpoint targets:
///
/// ```no_run
/// // src/bin/attack.rs of a game's crate
/// fn main() -> std::process::ExitCode {
///     let config = adversarial::scenario::config();
///     adversarial::cli::main_with(adversarial::cli::Registry {
///         endpoints: vec![Box::new(adversarial::target::endpoint("link", config, |config| {
///             link::Endpoint::new(config.clone(), 0.0).expect("a valid configuration")
///         }))],
///         ..adversarial::cli::Registry::default()
///     })
/// }
/// ```
#[must_use]
pub fn main_with(registry: Registry) -> ExitCode {
    if !crate::alloc::is_counting() {
        eprintln!(
            "error: {}",
            crate::alloc::not_counting("adversarial::cli::main")
        );
        return ExitCode::from(2);
    }
    crate::panics::install();
    let name = program_name();
    let cli = command_named(&name)
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Command::Campaign(args) => run_campaign(registry, args),
        Command::Merge(args) => run_merge(registry, &args),
        Command::Replay {
            target,
            in_process,
            jsonl,
            paths,
        } => run_replay(&registry, target, in_process, jsonl, &paths),
        Command::Decode(args) => run_file(&registry, &args, false),
        Command::Inspect(args) => run_file(&registry, &args, true),
        Command::Encode(args) => run_encode(&registry, &args),
        Command::SeedCorpus {
            dir,
            count,
            seed,
            update_golden,
        } => seed_corpus(&registry, &dir, count, seed, update_golden),
        Command::Flood(args) => run_flood(&registry, &args),
        Command::Worker { target } => match registry
            .all_endpoints()
            .into_iter()
            .find(|e| e.name() == target)
        {
            Some(endpoint) => worker::serve_with(|input| {
                crate::scenario::attempt::answer(endpoint, input).to_string()
            })
            .map_err(|e| e.to_string())
            .map(|()| true),
            None => registry
                .named(&target)
                .and_then(|t| worker::serve(t).map_err(|e| e.to_string()))
                .map(|()| true),
        },
        Command::Targets => {
            let names = registry.targets.iter().map(|t| t.name());
            let width = names
                .chain(registry.endpoints.iter().map(|e| e.name()))
                .map(str::len)
                .max()
                .unwrap_or(0)
                .max(16);
            for t in &registry.targets {
                println!("{:<width$} {}", t.name(), t.about());
            }
            for e in &registry.endpoints {
                println!(
                    "{:<width$} {} (endpoint: conversations)",
                    e.name(),
                    e.about()
                );
            }
            if !registry.endpoints.is_empty() {
                let names: Vec<&str> = StateClass::ALL.iter().map(|c| c.name()).collect();
                println!(
                    "\nlies across packets (--state-class): {}",
                    names.join(", ")
                );
            }
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("{name}: {message}");
            ExitCode::from(2)
        }
    }
}
