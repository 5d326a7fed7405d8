//! CHANGELOG.md keeps step with the packages: it is in the Keep a
//! Changelog form, its newest release is the version every published
//! package has, and each package asks for its siblings at that version.

use std::path::Path;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The published packages' manifests.
const MANIFESTS: [&str; 4] = [
    "codec/Cargo.toml",
    "codec/derive/Cargo.toml",
    "adversarial/Cargo.toml",
    "link/Cargo.toml",
];

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap()
}

/// The releases, newest first: (version, date).
fn releases(changelog: &str) -> Vec<(String, String)> {
    changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .filter_map(|l| l.split_once("] - "))
        .map(|(v, d)| (v.to_string(), d.to_string()))
        .collect()
}

fn semver(version: &str) -> Option<(u64, u64, u64)> {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().ok());
    let v = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

#[test]
fn the_changelog_has_an_unreleased_section_and_dated_semver_releases() {
    let changelog = read("CHANGELOG.md");
    assert!(changelog.starts_with("# Changelog\n"));
    assert!(changelog.contains("\n## [Unreleased]\n"));
    let releases = releases(&changelog);
    assert!(releases.len() >= 2, "{releases:?}");
    let mut newer: Option<(u64, u64, u64)> = None;
    for (version, date) in &releases {
        let v = semver(version).unwrap_or_else(|| panic!("{version} is not x.y.z"));
        assert!(newer.is_none_or(|n| n > v), "{version} is out of order");
        newer = Some(v);
        let digits: Vec<&str> = date.split('-').collect();
        assert!(
            digits.len() == 3 && digits.iter().all(|d| d.parse::<u32>().is_ok()),
            "{version}'s date {date} is not YYYY-MM-DD"
        );
    }
}

#[test]
fn every_published_package_has_the_newest_releases_version() {
    let changelog = read("CHANGELOG.md");
    let (newest, _) = releases(&changelog).into_iter().next().unwrap();
    let mut checked = 0;
    for manifest in MANIFESTS {
        let text = read(manifest);
        let version = text
            .lines()
            .find_map(|l| l.strip_prefix("version = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap();
        assert_eq!(version, newest, "{manifest}");
        // A sibling it depends on is asked for at the same version (dev
        // dependencies are not published, and need none).
        let mut section = "";
        let siblings = text.lines().filter(|l| {
            if l.starts_with('[') {
                section = l;
            }
            section == "[dependencies]" && l.contains("package = \"gamepacket-")
        });
        for line in siblings {
            checked += 1;
            assert!(
                line.contains(&format!("version = \"{newest}\"")),
                "{manifest}: {line}"
            );
        }
    }
    // codec on derive, adversarial on codec and link, link on codec.
    assert_eq!(checked, 4);
}
