//! Round-trip time and packet loss, from the endpoint's own clock: a
//! hostile ack can say which packets arrived, but never what time it is,
//! and every estimate stays finite and within its range.

/// Round-trip time and packet-loss estimates, in milliseconds and percent.
#[derive(Clone, Debug)]
pub struct Estimates {
    /// Smoothed round-trip time.
    rtt: f32,
    /// The last samples, ring-indexed by sequence; negative when empty.
    history: Vec<f32>,
    rtt_min: f32,
    rtt_max: f32,
    rtt_avg: f32,
    packet_loss: f32,
    rtt_smoothing: f32,
    loss_smoothing: f32,
}

/// The longest round trip counted: a sample past it (a clock that jumped)
/// is clamped, so that no sum overflows to infinity.
const MAX_RTT_MS: f32 = 60_000.0;

impl Estimates {
    pub(crate) fn new(history: usize, rtt_smoothing: f32, loss_smoothing: f32) -> Self {
        Self {
            rtt: 0.0,
            history: vec![-1.0; history.max(1)],
            rtt_min: 0.0,
            rtt_max: 0.0,
            rtt_avg: 0.0,
            packet_loss: 0.0,
            rtt_smoothing,
            loss_smoothing,
        }
    }

    /// Adds the round trip of packet `sequence`: sent at `sent`, acked at
    /// `now` (seconds). A time that is not finite or runs backwards adds
    /// nothing.
    pub(crate) fn sample(&mut self, sequence: u16, sent: f64, now: f64) {
        let elapsed = (now - sent) * 1000.0;
        if !elapsed.is_finite() || elapsed < 0.0 {
            return;
        }
        let rtt = (elapsed as f32).min(MAX_RTT_MS);
        let at = usize::from(sequence)
            .checked_rem(self.history.len())
            .unwrap_or(0);
        if let Some(slot) = self.history.get_mut(at) {
            *slot = rtt;
        }
        if self.rtt == 0.0 || (self.rtt - rtt).abs() < 0.000_01 {
            self.rtt = rtt;
        } else {
            self.rtt += (rtt - self.rtt) * self.rtt_smoothing;
        }
    }

    /// Recomputes the minimum, maximum and average round trip, and moves
    /// the packet loss toward `dropped` of `sent` (the oldest half of the
    /// sent window).
    pub(crate) fn update(&mut self, sent: u32, dropped: u32) {
        let samples = self.history.iter().filter(|r| **r >= 0.0);
        let (count, sum, min, max) = samples.fold((0u32, 0.0f32, MAX_RTT_MS, 0.0f32), |acc, r| {
            (
                acc.0.saturating_add(1),
                acc.1 + r,
                acc.2.min(*r),
                acc.3.max(*r),
            )
        });
        if count == 0 {
            (self.rtt_min, self.rtt_max, self.rtt_avg) = (0.0, 0.0, 0.0);
        } else {
            (self.rtt_min, self.rtt_max) = (min, max);
            self.rtt_avg = sum / count as f32;
        }
        if sent == 0 {
            self.packet_loss = 0.0;
            return;
        }
        let loss = dropped.min(sent) as f32 / sent as f32 * 100.0;
        if (self.packet_loss - loss).abs() > 0.000_01 {
            self.packet_loss += (loss - self.packet_loss) * self.loss_smoothing;
        } else {
            self.packet_loss = loss;
        }
    }

    /// The smoothed round trip, in milliseconds.
    #[must_use]
    pub const fn rtt(&self) -> f32 {
        self.rtt
    }

    /// The smallest, largest and mean round trip of the kept samples, in
    /// milliseconds (zeros before the first).
    #[must_use]
    pub const fn rtt_min_max_avg(&self) -> (f32, f32, f32) {
        (self.rtt_min, self.rtt_max, self.rtt_avg)
    }

    /// The packet loss, in percent (0 to 100).
    #[must_use]
    pub const fn packet_loss(&self) -> f32 {
        self.packet_loss
    }
}
