//! The app's threads and their links to the UI thread: the computer player, the analysis
//! board's search, the Wi-Fi thread's link. Each thread is owned by a [`thread::Thread`],
//! which tells it to stop when dropped. A worker serves the screens: it takes their requests
//! and hands back their report types; the shell starts it and carries its reports in.

pub mod assist;
pub mod board;
pub mod board_link;
pub mod computer;
pub mod thread;
pub mod wifi_link;
