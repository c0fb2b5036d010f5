//! The `gpio` source: comparator outputs read with `rppal`.
//!
//! Polled rather than interrupt driven: the voltage changes over minutes, a read is a few
//! register loads through `/dev/gpiomem`, and comparators near their threshold chatter, which
//! would wake an interrupt handler far more often than a two-second poll.

use std::time::Duration;

use rppal::gpio::{Bias, Gpio, InputPin};

use super::{BatterySource, BatteryStatus, SourceError, comparator_status};
use crate::config::{ActiveLevel, GpioBatteryConfig, PinConfig, Pull};

/// Comparator inputs on the Raspberry Pi's GPIO header.
pub struct GpioSource {
    comparators: [(InputPin, ActiveLevel); 4],
    charging: Option<(InputPin, ActiveLevel)>,
}

fn open_pin(
    gpio: &Gpio,
    name: &str,
    config: PinConfig,
) -> Result<(InputPin, ActiveLevel), SourceError> {
    let pin = gpio.get(config.pin).map_err(|e| {
        SourceError::new(
            "gpio",
            format!("cannot use BCM pin {} ({name}): {e}", config.pin),
        )
    })?;
    let mut input = match config.pull {
        Pull::Off => pin.into_input(),
        Pull::Up => pin.into_input_pullup(),
        Pull::Down => pin.into_input_pulldown(),
    };
    // Keep the pull configured after the app exits: the comparator lines stay defined.
    input.set_reset_on_drop(false);
    Ok((input, config.active))
}

/// How long a pin is given to follow a pull before it is read: a bare pad settles in
/// microseconds.
const PULL_SETTLE: Duration = Duration::from_millis(1);

fn bias(pull: Pull) -> Bias {
    match pull {
        Pull::Off => Bias::Off,
        Pull::Up => Bias::PullUp,
        Pull::Down => Bias::PullDown,
    }
}

fn is_active(input: &InputPin, active: ActiveLevel) -> bool {
    input.is_high() == (active == ActiveLevel::High)
}

impl GpioSource {
    /// Claims the configured pins, and checks that a board drives them.
    ///
    /// # Errors
    /// Not a Raspberry Pi (or no access to `/dev/gpiomem`: the user must be in the `gpio`
    /// group), a pin is busy, or no board drives the comparator pins
    /// ([`SourceError::no_board`]): floating pins can read as "below cut-off", and a bare Pi
    /// must not shut itself down at every boot.
    pub fn open(config: &GpioBatteryConfig) -> Result<Self, SourceError> {
        let gpio = Gpio::new().map_err(|e| {
            SourceError::new(
                "gpio",
                format!(
                    "GPIO unavailable ({e}); not a Raspberry Pi, or the user is not in the \
                     `gpio` group. Set battery.source = \"none\" (or \"file\") off the device"
                ),
            )
        })?;
        let mut source = Self {
            comparators: [
                open_pin(&gpio, "full", config.full)?,
                open_pin(&gpio, "above_two_thirds", config.above_two_thirds)?,
                open_pin(&gpio, "above_one_third", config.above_one_third)?,
                open_pin(&gpio, "above_cutoff", config.above_cutoff)?,
            ],
            charging: match config.charging {
                Some(c) => Some(open_pin(&gpio, "charging", c)?),
                None => None,
            },
        };
        let pulls = [
            config.full.pull,
            config.above_two_thirds.pull,
            config.above_one_third.pull,
            config.above_cutoff.pull,
        ];
        if source.floating(pulls) {
            return Err(SourceError::no_board());
        }
        Ok(source)
    }

    /// Whether all four comparator pins float. Pulled up and then down, an undriven pin reads
    /// high and then low; a push-pull comparator output reads what the comparator says both
    /// times. Only comparators wired without pulls (push-pull, as the shipped config) can be
    /// told from no board: an open-drain output that is released floats too, so with a pull
    /// configured the pins are taken as wired. The configured pulls are put back.
    fn floating(&mut self, pulls: [Pull; 4]) -> bool {
        if pulls.iter().any(|&p| p != Pull::Off) {
            return false;
        }
        let mut follow = [true; 4];
        for (pull, high) in [(Bias::PullUp, true), (Bias::PullDown, false)] {
            for (pin, _) in &mut self.comparators {
                pin.set_bias(pull);
            }
            std::thread::sleep(PULL_SETTLE);
            for (f, (pin, _)) in follow.iter_mut().zip(&self.comparators) {
                *f &= pin.is_high() == high;
            }
        }
        for ((pin, _), pull) in self.comparators.iter_mut().zip(pulls) {
            pin.set_bias(bias(pull));
        }
        follow.iter().all(|&f| f)
    }
}

impl BatterySource for GpioSource {
    fn name(&self) -> &'static str {
        "gpio"
    }

    fn read(&mut self) -> Result<BatteryStatus, SourceError> {
        let above = self
            .comparators
            .each_ref()
            .map(|(pin, active)| is_active(pin, *active));
        let charging = self
            .charging
            .as_ref()
            .map(|(pin, active)| is_active(pin, *active));
        Ok(comparator_status(above, charging))
    }
}
