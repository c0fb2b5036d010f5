//! Helpers shared by the integration tests, written once: the headless UI (waiting on its
//! event loop, tapping squares and buttons, starting the app on a state directory), the real
//! `chesspi` binary as a process (in an Xvfb screen), a test re-run as a child process to be
//! killed, a network peer written from docs/PROTOCOL.md, games written as UCI moves, and a
//! small random generator.
//! A test declares `mod support;` and uses what it needs.

// Each test binary compiles this whole module and uses a different part of it.
#![allow(dead_code)]

pub mod app_process;
pub mod child;
pub mod games;
pub mod lan_peer;
pub mod rng;
pub mod ui;
