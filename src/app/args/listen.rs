//! `duipai listen`: receive problems from the Competitive Companion browser extension.

use std::path::PathBuf;

use clap::Args;

/// The port `listen` takes unless `--port` says otherwise: one no tool in the extension's
/// own list uses (1327, 4243, 4244, 6174, 10042, 10043, 10045, 27121), so it is added to the
/// extension's custom ports.
pub const DEFAULT_PORT: u16 = 10044;

#[derive(Debug, Args)]
pub struct ListenArgs {
    /// The port on localhost to listen on; add it to Competitive Companion's custom ports.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Where problem folders go (DIR/<group>/<name>/); made if missing.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
    /// Stop once one batch (a problem, or a whole contest) has landed.
    #[arg(long)]
    pub once: bool,
    /// A solution template: copied into every new problem's folder as sol.<its extension>,
    /// with ${name}, ${group} and ${url} replaced by the problem's.
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
}
