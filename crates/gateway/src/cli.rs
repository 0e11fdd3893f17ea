//! The command line: `setupiq [serve]`, `setupiq migrate`, `setupiq openapi`,
//! `setupiq admin grant EMAIL`, `setupiq analyze PHOTO | --text DESCRIPTION`.

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
    /// Rate a setup photo (or, with --text, a description) and print the result.
    #[command(arg_required_else_help = true)]
    Analyze {
        /// A JPEG, PNG or WebP photo of the setup.
        #[arg(conflicts_with = "text", required_unless_present = "text")]
        photo: Option<PathBuf>,
        /// Rate this description instead of a photo.
        #[arg(long)]
        text: Option<String>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
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
