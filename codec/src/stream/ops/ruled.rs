//! A hand-written field that declares its rule: `#[serialize(with = path,
//! valid = rule)]`.

use crate::error::DecodeError;
use crate::role::Role;
use crate::stream::Stream;

/// `value` through the hand-written `with`, whose values must keep `valid`.
/// A writer refuses one that does not, as it refuses a ranged value out of
/// range ([`DecodeError::OutOfRange`], at the field's first bit). The reader
/// is `with` alone: it is the code under test, and the rule is stated apart
/// from it so that a bug `with` makes on both sides can be seen. The field's
/// bits get [`Role::Ruled`], so the harness lies in every value they can
/// hold; an accepted value that breaks the rule then cannot be written
/// back, which the harness reports as a non-canonical accept.
#[inline]
pub fn serialize_ruled<S: Stream, T>(
    stream: &mut S,
    value: &mut T,
    with: impl FnOnce(&mut S, &mut T) -> Result<(), S::Error>,
    valid: impl FnOnce(&T) -> bool,
) -> Result<(), S::Error> {
    if S::IS_WRITING && !valid(value) {
        let at = stream.bit_offset();
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    stream.field_role(Role::Ruled);
    with(stream, value)
}
