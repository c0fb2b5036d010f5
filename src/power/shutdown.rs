//! Running the configured shutdown command (default `systemctl poweroff`).

use std::fmt;
use std::process::Command;

use crate::config::CommandLine;

/// The command failed to start or exited unsuccessfully.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShutdownError(pub String);

impl fmt::Display for ShutdownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shutdown command failed: {}", self.0)
    }
}

impl std::error::Error for ShutdownError {}

/// The command that shuts the device down, run without a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShutdownCommand {
    command: CommandLine,
}

impl ShutdownCommand {
    /// Wraps the configured command line.
    pub fn new(command: CommandLine) -> Self {
        Self { command }
    }

    /// The command as one line, for logs and messages.
    pub fn display(&self) -> String {
        std::iter::once(self.command.program.as_str())
            .chain(self.command.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs the command and waits for it. Blocks: call it from a worker thread (see
    /// [`ShutdownCommand::spawn`]).
    ///
    /// # Errors
    /// The program cannot be started or exits with a failure status.
    pub fn run(&self) -> Result<(), ShutdownError> {
        log::warn!("running shutdown command: {}", self.display());
        let status = Command::new(&self.command.program)
            .args(&self.command.args)
            .status()
            .map_err(|e| ShutdownError(format!("{}: {e}", self.display())))?;
        if status.success() {
            Ok(())
        } else {
            Err(ShutdownError(format!("{}: {status}", self.display())))
        }
    }

    /// Runs the command on its own thread and reports the result to `done`, so the UI thread
    /// never waits for it.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn(
        &self,
        done: impl FnOnce(Result<(), ShutdownError>) + Send + 'static,
    ) -> std::io::Result<()> {
        let this = self.clone();
        std::thread::Builder::new()
            .name("shutdown".into())
            .spawn(move || done(this.run()))
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(program: &str, args: &[&str]) -> ShutdownCommand {
        ShutdownCommand::new(CommandLine {
            program: program.into(),
            args: args.iter().map(|a| (*a).to_string()).collect(),
        })
    }

    #[test]
    fn reports_success_failure_and_missing_programs() {
        assert_eq!(command("true", &[]).run(), Ok(()));
        assert!(command("false", &[]).run().is_err());
        let missing = command("/nonexistent/chesspi-poweroff", &["now"]);
        let err = missing.run().expect_err("missing program");
        assert!(
            err.to_string()
                .contains("/nonexistent/chesspi-poweroff now"),
            "{err}"
        );
    }

    #[test]
    fn spawn_reports_through_the_callback() {
        let (tx, rx) = std::sync::mpsc::channel();
        command("true", &[])
            .spawn(move |r| tx.send(r).expect("send"))
            .expect("thread");
        let result = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reported");
        assert_eq!(result, Ok(()));
    }
}
