//! Shrinking: the smallest input that still fails the same way.

/// The most candidate inputs one shrink tries.
const MAX_TRIES: usize = 2000;

/// Greedily removes chunks (halves, quarters, ... single bytes), then zeroes
/// bytes, keeping each change under which `still_fails` holds. `still_fails`
/// receives the candidate and may fix it up (refresh a CRC) in place.
pub fn shrink(input: &[u8], still_fails: impl FnMut(&mut Vec<u8>) -> bool) -> Vec<u8> {
    shrink_within(input, MAX_TRIES, still_fails)
}

/// As [`shrink`], trying at most `max_tries` candidates (each may cost a
/// deadline or a fresh process).
pub fn shrink_within(
    input: &[u8],
    max_tries: usize,
    mut still_fails: impl FnMut(&mut Vec<u8>) -> bool,
) -> Vec<u8> {
    let mut best = input.to_vec();
    let mut tries = 0;
    let mut chunk = best.len().div_ceil(2).max(1);
    while chunk >= 1 && tries < max_tries {
        let mut start = 0;
        let mut removed_any = false;
        while start < best.len() && tries < max_tries {
            let end = (start + chunk).min(best.len());
            let mut candidate = [&best[..start], &best[end..]].concat();
            tries += 1;
            if still_fails(&mut candidate) {
                best = candidate;
                removed_any = true;
            } else {
                start += chunk;
            }
        }
        if chunk == 1 && !removed_any {
            break;
        }
        if !removed_any {
            chunk /= 2;
        }
    }
    for i in 0..best.len() {
        if tries >= max_tries {
            break;
        }
        if best[i] != 0 {
            let mut candidate = best.clone();
            candidate[i] = 0;
            tries += 1;
            if still_fails(&mut candidate) {
                best = candidate;
            }
        }
    }
    best
}
