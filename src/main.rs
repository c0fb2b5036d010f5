//! `chesspi`: parse the command line, then play, or render a screenshot.

use chesspi::cli::{self, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(e) => {
            eprintln!("chesspi: {e}\nTry 'chesspi --help'.");
            return ExitCode::from(2);
        }
    };
    let result = match command {
        Command::Help => {
            print!("{}", cli::HELP);
            Ok(())
        }
        Command::Version => {
            println!("chesspi {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        Command::Screenshot { out, fen, taps } => {
            chesspi::app::screenshot::screenshot(&out, fen.as_deref(), &taps)
                .map_err(|e| e.to_string())
        }
        Command::Run(options) => chesspi::app::run(&options).map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chesspi: {e}");
            ExitCode::FAILURE
        }
    }
}
