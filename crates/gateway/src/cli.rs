//! The command line: `setupiq [serve]`, `setupiq migrate`, `setupiq openapi`,
//! `setupiq admin grant EMAIL`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "setupiq", version, about = "SetupIQ: AI ratings for gaming and desk setups")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API and the web app (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Write the OpenAPI document.
    Openapi {
        /// Where to write it.
        #[arg(long, default_value = "openapi/openapi.json")]
        output: PathBuf,
        /// Do not write; fail if the file differs from what the code generates.
        #[arg(long)]
        check: bool,
    },
    /// Administer accounts.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Give the admin role to the account with this e-mail.
    Grant { email: String },
}
