//! The `gpio` source: comparator outputs read with `rppal`.
//!
//! Polled rather than interrupt driven: the voltage changes over minutes, a read is a few
//! register loads through `/dev/gpiomem`, and comparators near their threshold chatter, which
//! would wake an interrupt handler far more often than a two-second poll.

use rppal::gpio::{Gpio, InputPin};

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

fn is_active(input: &InputPin, active: ActiveLevel) -> bool {
    input.is_high() == (active == ActiveLevel::High)
}

impl GpioSource {
    /// Claims the configured pins.
    ///
    /// # Errors
    /// Not a Raspberry Pi (or no access to `/dev/gpiomem`: the user must be in the `gpio`
    /// group), or a pin is busy.
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
        Ok(Self {
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
        })
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
