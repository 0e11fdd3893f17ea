//! The community crate's queries, a file per table family as `service/` is laid out:
//! [`setups`] (posts, their photos and lists), [`votes`], [`reports`] (of posts and of
//! comments), [`comments`], [`notifications`] (and the digest) and [`gear`]. Like every
//! function taking ids (see `setupiq_core::ids`), these take the user first, then the setup or
//! comment. Services call them as `repo::name`, whichever file holds them.

mod comments;
mod gear;
mod notifications;
mod reports;
mod setups;
mod votes;

pub(crate) use comments::*;
pub(crate) use gear::*;
pub(crate) use notifications::*;
pub(crate) use reports::*;
pub(crate) use setups::*;
pub(crate) use votes::*;
