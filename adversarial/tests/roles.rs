//! Field roles reach the field map from a derived type, whatever its fields
//! are called: the mutation classes find counts, indices, sentinels,
//! versions, integrity counters and quaternions by role, not by name.

use adversarial::field_map::{FieldMap, RecordingStream};
use codec::protocols::scenes::SmallestThree;
use codec::subset::Entry;
use codec::{Role, Serialize, WriteStream};

#[derive(Debug, Default, Serialize)]
#[serialize(versions = 1..=2)]
struct Game {
    #[serialize(version)]
    revision: u32,
    #[serialize(max_len = 4, range = 0..=9, after(integrity))]
    scores: Vec<u8>,
    #[serialize(subset(sentinel, size = 16))]
    players: Vec<Entry<u8>>,
    #[serialize(subset(relative, size = 200))]
    props: Vec<Entry<u8>>,
    #[serialize(quaternion)]
    facing: SmallestThree,
    #[serialize(range = -5..=5)]
    wind: i8,
}

fn map_of(game: &mut Game) -> FieldMap {
    let mut buf = [0u8; 256];
    let mut stream = RecordingStream::new(WriteStream::new(&mut buf));
    game.serialize(&mut stream).unwrap();
    stream.finish().1
}

fn names(map: &FieldMap, role: Role) -> Vec<&'static str> {
    map.with_role(role).map(|f| f.name).collect()
}

#[test]
fn a_derived_type_gives_each_field_its_role() {
    let mut game = Game {
        revision: 2,
        scores: vec![3, 4],
        players: vec![Entry { index: 2, value: 0 }, Entry { index: 7, value: 1 }],
        props: vec![Entry {
            index: 150,
            value: 5,
        }],
        facing: SmallestThree::IDENTITY,
        wind: -2,
    };
    let map = map_of(&mut game);
    assert_eq!(names(&map, Role::Version), ["version"]);
    assert_eq!(names(&map, Role::Integrity), ["integrity"]);
    assert_eq!(names(&map, Role::Count), ["count"]);
    assert_eq!(names(&map, Role::Index), ["index", "index"]);
    // The sentinel subset's one ranged value, then the relative ladder's
    // flags and difference.
    let sentinels = map.with_role(Role::Sentinel).count();
    assert!(sentinels > 2, "{sentinels} sentinel fields");
    assert!(map.with_role(Role::RelativeIndex).count() > 1);
    assert_eq!(names(&map, Role::Quaternion), ["facing"; 4]);
    // Everything else is a value under its own name; a subset's payloads
    // that name no field of their own are `value`, not the index before.
    assert_eq!(
        names(&map, Role::Value),
        ["scores", "scores", "value", "value", "value", "wind"]
    );
    // A role lasts until the next field is named: no role leaks onward.
    let wind = map.named("wind").next().expect("wind is mapped");
    assert_eq!(wind.role, Role::Value);
}

#[derive(Debug, Default, Serialize)]
enum Event {
    #[default]
    Quiet,
    Hit {
        #[serialize(range = 0..=63)]
        id: u8,
    },
    Moved(#[serialize(range = 0..=1000)] u16),
}

#[derive(Debug, Default, Serialize)]
struct Log {
    #[serialize(max_len = 8)]
    events: Vec<Event>,
}

#[test]
fn every_element_tag_of_a_list_of_enums_goes_by_the_list_name() {
    let mut log = Log {
        events: vec![
            Event::Hit { id: 3 },
            Event::Moved(700),
            Event::Quiet,
            Event::Hit { id: 9 },
        ],
    };
    let mut buf = [0u8; 64];
    let mut stream = RecordingStream::new(WriteStream::new(&mut buf));
    log.serialize(&mut stream).unwrap();
    let (_, map) = stream.finish();
    let names: Vec<&str> = map.fields.iter().map(|f| f.name).collect();
    // The count, then per element its tag and its fields (a tuple
    // variant's field goes by its position). The second tag used to go by
    // `id`, the first element's last field.
    assert_eq!(
        names,
        ["count", "events", "id", "events", "0", "events", "events", "id"],
        "{map:#?}"
    );
}
