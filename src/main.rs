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
            chesspi::app::boot::screenshot::screenshot(&out, fen.as_deref(), &taps)
                .map_err(|e| e.to_string())
        }
        Command::CheckConfig(path) => {
            let outcome = chesspi::config::check_config_outcome(&path);
            if outcome.exit_code == 0 {
                println!("{}", outcome.message);
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", outcome.message);
            return ExitCode::FAILURE;
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
