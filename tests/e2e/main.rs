//! End-to-end tests: the real `duipai` binary and the real process runner, with the fixture
//! programs (`duipai-fixture`) that pass, fail, hang, crash, flood or escape.

mod blame;
mod calibration;
mod checkers;
mod choices;
mod cli;
mod compile;
mod contained;
mod contest_size;
mod ergonomics;
mod files;
mod first_minute;
mod fishhead;
mod flags;
mod gems;
mod hostile;
mod hunting;
mod integrity;
mod interactive;
mod judging;
mod load;
mod memory;
mod minimize;
mod pack;
mod readme;
mod reports;
mod runner;
mod setter;
mod setter_tools;
mod settings;
mod shooting;
mod snapshots;
mod timing;
mod tolerance;
mod util;
