//! Teeth on the user's side: a copy of a game type whose reader is written
//! by hand, with one bug planted at a time (a range check off by one, a
//! count trusted one past its maximum, padding never checked, a duplicate
//! index accepted). The campaign call a user puts in a test fails each
//! within 10,000 cases, in the class aimed at that rule; the same readers
//! fed 10,000 random byte strings through the raw-bytes fuzz body (no field
//! map) are caught less often. The table this test prints
//! (`cargo test -p game-protocol --test teeth -- --nocapture`) is the one in
//! docs/HARNESS.md.

use adversarial::check;
use adversarial::mutate::Class;
use adversarial::target;
use codec::arbitrary::{Arbitrary, Result as ArbitraryResult, Unstructured};
use codec::subset::Entry;
use codec::{DecodeError, Role, Serialize, Stream};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

adversarial::count_allocations!();

/// Executions each detector gets.
const BUDGET: u64 = 10_000;

/// The game's declarations for a squad order, written with the derive:
/// the reference every planted reader must match on valid input.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Order {
    #[serialize(range = -100..=100)]
    steer: i8,
    #[serialize(max_len = 4, range = 0..=3, before(align))]
    buttons: Vec<u8>,
    #[serialize(subset(sentinel, size = 64), before(align))]
    squad: Vec<Entry<u8>>,
}

/// The bug planted in [`Planted`]'s reader.
const OFF_BY_ONE: u8 = 0;
const COUNT_PAST_MAX: u8 = 1;
const UNCHECKED_PADDING: u8 = 2;
const DUPLICATE_INDEX: u8 = 3;
/// No bug: the hand-written reader as it should be.
const NONE: u8 = u8::MAX;

/// `Order` with its `serialize` written by hand, as a user would for a
/// rule the attributes cannot say, and one bug in the reading half.
#[derive(Clone, Debug, Default, PartialEq)]
struct Planted<const BUG: u8>(Order);

impl<'a, const BUG: u8> Arbitrary<'a> for Planted<BUG> {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbitraryResult<Self> {
        Order::arbitrary(u).map(Self)
    }
}

fn padding<S: Stream, const BUG: u8>(s: &mut S) -> Result<(), S::Error> {
    s.field_name("padding");
    if S::IS_READING && BUG == UNCHECKED_PADDING {
        // Skips to the byte boundary without looking at the bits.
        let pad = (8 - s.bit_offset() % 8) % 8;
        return s.serialize_bits(&mut 0, pad as u32);
    }
    s.serialize_align()
}

impl<const BUG: u8> Serialize for Planted<BUG> {
    fn serialize<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        let reading = S::IS_READING;
        let order = &mut self.0;

        s.field_name("steer");
        let mut steer = i32::from(order.steer);
        let top = if reading && BUG == OFF_BY_ONE {
            101
        } else {
            100
        };
        s.serialize_int(&mut steer, -100, top)?;
        order.steer = steer as i8;

        padding::<S, BUG>(s)?;
        s.field_name("count");
        s.field_role(Role::Count);
        let mut count = order.buttons.len() as i32;
        let max = if reading && BUG == COUNT_PAST_MAX {
            5
        } else {
            4
        };
        s.serialize_int(&mut count, 0, max)?;
        if reading {
            order.buttons = vec![0; count as usize];
        }
        s.field_name("buttons");
        for button in &mut order.buttons {
            let mut wide = i32::from(*button);
            s.serialize_int(&mut wide, 0, 3)?;
            *button = wide as u8;
        }

        padding::<S, BUG>(s)?;
        if !reading {
            for entry in &mut order.squad {
                s.field_name("index");
                s.field_role(Role::Index);
                let mut index = entry.index as i32;
                s.serialize_int(&mut index, 0, 64)?;
                s.field_name("value");
                let mut value = u32::from(entry.value);
                s.serialize_bits(&mut value, 8)?;
            }
            s.field_name("sentinel");
            s.field_role(Role::Sentinel);
            return s.serialize_int(&mut 64, 0, 64);
        }
        let mut previous: Option<u32> = None;
        let mut squad = Vec::new();
        loop {
            s.field_name("index");
            s.field_role(Role::Index);
            let at = s.bit_offset();
            let mut index = 0;
            s.serialize_int(&mut index, 0, 64)?;
            if index == 64 {
                break;
            }
            let index = index as u32;
            let repeated = BUG == DUPLICATE_INDEX && previous == Some(index);
            if previous.is_some_and(|p| index <= p) && !repeated {
                return Err(s.refuse(DecodeError::NotIncreasing { at }));
            }
            previous = Some(index);
            s.field_name("value");
            let mut value = 0;
            s.serialize_bits(&mut value, 8)?;
            squad.push(Entry {
                index,
                value: value as u8,
            });
        }
        order.squad = squad;
        Ok(())
    }
}

/// Whether the campaign, `BUDGET` cases, fails the planted reader in
/// `class`.
fn campaign_catches<const BUG: u8>(class: Class) -> bool {
    let target = target::message::<Planted<BUG>>("planted");
    let report = check::campaign(vec![Box::new(target)])
        .cases(BUDGET)
        .report();
    report.failures.iter().any(|f| f.class == class)
}

/// The raw-bytes fuzz body on `BUDGET` random inputs: the execution that
/// first failed, if any did.
fn raw_bytes_catch<const BUG: u8>() -> Option<u64> {
    let target = target::message::<Planted<BUG>>("planted");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    (1..=BUDGET).find(|_| {
        let len = rng.gen_range(0..24);
        let input: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let target = &target;
        std::panic::catch_unwind(|| adversarial::fuzz::read_target(target, &input)).is_err()
    })
}

#[test]
fn the_hand_written_reader_matches_the_derived_one_and_passes() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..256).map(|_| rng.gen()).collect();
        let order = Order::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
        let derived = codec::to_vec(&mut order.clone()).unwrap();
        let hand = codec::to_vec(&mut Planted::<NONE>(order)).unwrap();
        assert_eq!(derived, hand);
    }
    let target = target::message::<Planted<NONE>>("planted");
    check::campaign(vec![Box::new(target)]).cases(BUDGET).run();
}

#[test]
fn the_campaign_catches_each_planted_bug_in_its_class() {
    let caught = [
        (
            "range check off by one",
            campaign_catches::<OFF_BY_ONE>(Class::OutOfRangeValue),
        ),
        (
            "count trusted past its maximum",
            campaign_catches::<COUNT_PAST_MAX>(Class::OutOfRangeCount),
        ),
        (
            "padding never checked",
            campaign_catches::<UNCHECKED_PADDING>(Class::NonZeroPadding),
        ),
        (
            "duplicate index accepted",
            campaign_catches::<DUPLICATE_INDEX>(Class::DuplicateIndex),
        ),
    ];
    let raw = [
        raw_bytes_catch::<OFF_BY_ONE>(),
        raw_bytes_catch::<COUNT_PAST_MAX>(),
        raw_bytes_catch::<UNCHECKED_PADDING>(),
        raw_bytes_catch::<DUPLICATE_INDEX>(),
    ];
    println!("| planted bug | campaign ({BUDGET} cases) | raw-bytes fuzz body ({BUDGET} random inputs) |");
    println!("|---|---|---|");
    for ((bug, campaign), raw) in caught.iter().zip(raw) {
        let raw = raw.map_or("missed".to_string(), |n| format!("caught at input {n}"));
        let campaign = if *campaign { "caught" } else { "missed" };
        println!("| {bug} | {campaign} | {raw} |");
    }
    for (bug, campaign) in caught {
        assert!(campaign, "the campaign missed: {bug}");
    }
}
