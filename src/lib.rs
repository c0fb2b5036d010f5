pub mod battery;
pub mod config;
pub mod power;
pub mod storage;
