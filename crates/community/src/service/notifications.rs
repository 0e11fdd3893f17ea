//! What the bell tells a member: someone commented on their setup, or replied to their
//! comment; a moderator removed their post or comment, or decided on what they reported;
//! their setup reached the week's top 3; a link on their RigPage, or of the gear on their
//! post, went dead.
//! Filed in the comment's (or the decision's) own transaction, one per event and recipient,
//! never for a member's own action; read when they open it (or all at once).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use setupiq_auth::Account;
use setupiq_core::{CommentId, NotificationId, SetupId, UserId};
use setupiq_db::{DbConnection, DieselError};

use crate::error::CommunityError;
pub use crate::models::NotificationKind;
use crate::models::{CommentRow, NotificationInsertForm, NotificationRow};
use crate::repo;

/// How much of the comment a notification quotes, in characters.
pub const EXCERPT_CHARS: usize = 120;

/// The comment just written, as the notifications need it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewComment {
    pub comment_id: CommentId,
    pub setup_id: SetupId,
    pub author_id: UserId,
    /// The setup's owner.
    pub owner_id: UserId,
    /// The author of the thread's first comment, for a reply (none when deleted).
    pub replied_to: Option<UserId>,
    pub at: DateTime<Utc>,
}

/// Files what a new comment tells others: its thread's author hears of a reply, the setup's
/// owner of a comment (once, if they are also the thread's author); the author hears nothing.
pub(crate) fn on_comment(conn: &mut DbConnection, new: NewComment) -> Result<(), DieselError> {
    let mut told = Vec::new();
    if let Some(thread_author) = new.replied_to.filter(|id| *id != new.author_id) {
        told.push((thread_author, NotificationKind::Reply));
    }
    if new.owner_id != new.author_id && new.replied_to != Some(new.owner_id) {
        told.push((new.owner_id, NotificationKind::Comment));
    }
    for (user_id, kind) in told {
        let form = NotificationInsertForm {
            user_id,
            kind,
            actor_id: Some(new.author_id),
            setup_id: Some(new.setup_id),
            comment_id: Some(new.comment_id),
            subject: None,
            created_at: new.at.naive_utc(),
        };
        repo::insert_notification(conn, &form)?;
    }
    Ok(())
}

/// A moderator's decision, as the notifications need it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decided<'a> {
    pub moderator_id: UserId,
    /// The setup it concerned, if it still stands.
    pub setup_id: Option<SetupId>,
    /// The post's title or the start of the comment, as it was.
    pub subject: &'a str,
    /// Whose post or comment was removed (none when it stays, or its author is gone).
    pub removed_from: Option<UserId>,
    /// The post (false) or a comment (true).
    pub comment: bool,
    /// Who reported it; told it was upheld (removed) or dismissed.
    pub reporters: &'a [UserId],
    pub at: DateTime<Utc>,
}

/// Files what a moderator's decision tells: the author of what was removed, and everyone
/// who reported it. The moderator is never told of their own decision.
pub(crate) fn on_decision(conn: &mut DbConnection, decided: Decided<'_>) -> Result<(), DieselError> {
    let removed =
        if decided.comment { NotificationKind::CommentRemoved } else { NotificationKind::PostRemoved };
    let mut told: Vec<(UserId, NotificationKind)> =
        decided.removed_from.map(|id| (id, removed)).into_iter().collect();
    let verdict = if decided.removed_from.is_some() {
        NotificationKind::ReportUpheld
    } else {
        NotificationKind::ReportDismissed
    };
    told.extend(decided.reporters.iter().map(|&id| (id, verdict)));
    for (user_id, kind) in told.into_iter().filter(|(id, _)| *id != decided.moderator_id) {
        let form = NotificationInsertForm {
            user_id,
            kind,
            actor_id: None,
            setup_id: decided.setup_id,
            comment_id: None,
            subject: Some(decided.subject),
            created_at: decided.at.naive_utc(),
        };
        repo::insert_notification(conn, &form)?;
    }
    Ok(())
}

/// Tells a setup's owner it reached the week's top 3, once per setup.
pub(crate) fn on_top_week(
    conn: &mut DbConnection,
    owner_id: UserId,
    setup_id: SetupId,
    title: &str,
    at: DateTime<Utc>,
) -> Result<(), DieselError> {
    if repo::was_notified(conn, owner_id, setup_id, NotificationKind::TopWeek)? {
        return Ok(());
    }
    let form = NotificationInsertForm {
        user_id: owner_id,
        kind: NotificationKind::TopWeek,
        actor_id: None,
        setup_id: Some(setup_id),
        comment_id: None,
        subject: Some(title),
        created_at: at.naive_utc(),
    };
    repo::insert_notification(conn, &form)?;
    Ok(())
}

/// Tells a RigPage's owner that one of its links went dead (the link's label as the
/// subject). The link health check calls it once per link going dead.
pub fn on_rigpage_link_dead(
    conn: &mut DbConnection,
    owner_id: UserId,
    label: &str,
    at: DateTime<Utc>,
) -> Result<(), DieselError> {
    let form = NotificationInsertForm {
        user_id: owner_id,
        kind: NotificationKind::RigpageLinkDead,
        actor_id: None,
        setup_id: None,
        comment_id: None,
        subject: Some(label),
        created_at: at.naive_utc(),
    };
    repo::insert_notification(conn, &form)?;
    Ok(())
}

/// Tells a post's owner that the link of one of its pieces of gear went dead (the post as
/// the setup, the item's name as the subject). The link health check calls it once per
/// link going dead.
pub fn on_gear_link_dead(
    conn: &mut DbConnection,
    owner_id: UserId,
    setup_id: SetupId,
    name: &str,
    at: DateTime<Utc>,
) -> Result<(), DieselError> {
    let form = NotificationInsertForm {
        user_id: owner_id,
        kind: NotificationKind::GearLinkDead,
        actor_id: None,
        setup_id: Some(setup_id),
        comment_id: None,
        subject: Some(name),
        created_at: at.naive_utc(),
    };
    repo::insert_notification(conn, &form)?;
    Ok(())
}

/// The start of a text, as a notification quotes it.
pub(crate) fn excerpt_of(text: &str) -> String {
    let mut excerpt: String = text.chars().take(EXCERPT_CHARS).collect();
    if text.chars().count() > EXCERPT_CHARS {
        excerpt.push('…');
    }
    excerpt
}

/// One notification as its recipient sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub id: NotificationId,
    pub kind: NotificationKind,
    /// Who commented (none once their account is gone, and for a moderator's decision).
    pub actor: Option<String>,
    /// The setup it is about, while it stands.
    pub setup_id: Option<SetupId>,
    pub setup_title: Option<String>,
    /// The comment (none for a moderator's decision).
    pub comment_id: Option<CommentId>,
    /// The start of the comment (none once it was deleted); for a moderator's decision, what
    /// it was about (the post's title, the start of the comment).
    pub excerpt: Option<String>,
    pub created_at: DateTime<Utc>,
    pub read: bool,
}

impl Notification {
    /// What happened, in one sentence: the one wording of the notifications page, the daily
    /// digest and the data export.
    pub fn sentence(&self) -> String {
        let who = self.actor.as_deref().unwrap_or("Someone");
        let quoted = |text: &str| format!("“{text}”");
        let place = self.setup_title.as_deref().map_or_else(|| "your setup".to_owned(), quoted);
        let what = self.excerpt.as_deref().map(quoted);
        match self.kind {
            NotificationKind::Reply => format!("{who} replied to your comment on {place}"),
            NotificationKind::Comment => format!("{who} commented on {place}"),
            NotificationKind::PostRemoved => {
                format!("A moderator removed your post {}", what.unwrap_or_default()).trim_end().to_owned()
            }
            NotificationKind::CommentRemoved => {
                format!("A moderator removed your comment {}", what.unwrap_or_default()).trim_end().to_owned()
            }
            NotificationKind::ReportUpheld => {
                format!("A moderator removed {} you reported. Thank you.", what.as_deref().unwrap_or("what"))
            }
            NotificationKind::ReportDismissed => {
                format!(
                    "A moderator reviewed {} you reported and kept it.",
                    what.as_deref().unwrap_or("what")
                )
            }
            NotificationKind::TopWeek => {
                format!("Your setup {} reached this week's top 3!", what.unwrap_or(place))
            }
            NotificationKind::RigpageLinkDead => format!(
                "A link on your RigPage, {}, stopped working: fix or remove it.",
                what.as_deref().unwrap_or("one of them")
            ),
            NotificationKind::GearLinkDead => {
                let post = self
                    .setup_title
                    .as_deref()
                    .map_or_else(|| "your post".to_owned(), |title| format!("your post {}", quoted(title)));
                match what {
                    Some(item) => {
                        format!("The gear link of {item} on {post} stopped working: fix or remove it.")
                    }
                    None => format!("A gear link on {post} stopped working: fix or remove it."),
                }
            }
        }
    }

    /// The site path opening it leads to: the setup it is about, or the RigPage editor.
    pub fn path(&self) -> Option<String> {
        match (self.setup_id, self.kind) {
            (Some(id), _) => Some(format!("/community/setup/{id}")),
            (None, NotificationKind::RigpageLinkDead) => Some("/rigpage-config".to_owned()),
            (None, _) => None,
        }
    }
}

/// A page of a member's notifications and their counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbox {
    pub notifications: Vec<Notification>,
    pub total: i64,
    pub unread: i64,
}

/// A page of the member's notifications, newest first, in a fixed number of queries.
pub fn inbox(
    conn: &mut DbConnection,
    user_id: UserId,
    limit: i64,
    offset: i64,
) -> Result<Inbox, CommunityError> {
    let rows = repo::notifications_of(conn, user_id, limit, offset)?;
    let (total, unread) = repo::count_notifications(conn, user_id)?;
    Ok(Inbox { notifications: described(conn, rows)?, total, unread })
}

/// Notifications as their recipient reads them: who, about which setup, quoting what (a
/// fixed number of queries, whatever the number of rows).
pub(crate) fn described(
    conn: &mut DbConnection,
    rows: Vec<NotificationRow>,
) -> Result<Vec<Notification>, CommunityError> {
    let mut actor_ids: Vec<UserId> = rows.iter().filter_map(|r| r.actor_id).collect();
    actor_ids.sort_unstable();
    actor_ids.dedup();
    let actors: HashMap<UserId, Account> = setupiq_auth::service::accounts::find_many(conn, &actor_ids)?
        .into_iter()
        .map(|a| (a.id, a))
        .collect();
    let setup_ids: Vec<SetupId> = rows.iter().filter_map(|r| r.setup_id).collect();
    let titles = repo::setup_titles(conn, &setup_ids)?;
    let comment_ids: Vec<CommentId> = rows.iter().filter_map(|r| r.comment_id).collect();
    let comments = repo::comments_by_id(conn, &comment_ids)?;
    let notifications = rows
        .into_iter()
        .map(|row| Notification {
            id: row.id,
            kind: row.kind,
            actor: row.actor_id.and_then(|id| actors.get(&id)).map(|a| a.shown_name().to_owned()),
            setup_id: row.setup_id,
            setup_title: row.setup_id.and_then(|id| titles.get(&id).cloned().flatten()),
            comment_id: row.comment_id,
            excerpt: match row.comment_id {
                Some(id) => comments.get(&id).and_then(excerpt),
                None => row.subject,
            },
            created_at: row.created_at.and_utc(),
            read: row.read_at.is_some(),
        })
        .collect();
    Ok(notifications)
}

fn excerpt(comment: &CommentRow) -> Option<String> {
    (!comment.deleted).then(|| excerpt_of(&comment.body))
}

/// How many of the member's notifications are unread: all the bell asks, every minute.
pub fn unread(conn: &mut DbConnection, user_id: UserId) -> Result<i64, CommunityError> {
    Ok(repo::count_unread(conn, user_id)?)
}

/// Which notifications to mark read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    These(Vec<NotificationId>),
    All,
}

/// Marks the member's notifications read (another member's ids are ignored); returns how
/// many were unread.
pub fn mark_read(
    conn: &mut DbConnection,
    user_id: UserId,
    read: &Read,
    now: DateTime<Utc>,
) -> Result<usize, CommunityError> {
    let ids = match read {
        Read::These(ids) => Some(ids.as_slice()),
        Read::All => None,
    };
    Ok(repo::mark_notifications_read(conn, user_id, ids, now.naive_utc())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notice(kind: NotificationKind) -> Notification {
        Notification {
            id: NotificationId(1),
            kind,
            actor: None,
            setup_id: None,
            setup_title: None,
            comment_id: None,
            excerpt: None,
            created_at: DateTime::<Utc>::UNIX_EPOCH,
            read: false,
        }
    }

    #[test]
    fn each_kind_is_one_sentence_that_leads_where_it_is_about() {
        let cases = [
            (
                Notification {
                    actor: Some("Gina".into()),
                    setup_id: Some(SetupId(7)),
                    setup_title: Some("Neon Den".into()),
                    comment_id: Some(CommentId(9)),
                    excerpt: Some("An Ergotron LX".into()),
                    ..notice(NotificationKind::Reply)
                },
                "Gina replied to your comment on “Neon Den”",
                Some("/community/setup/7"),
            ),
            (
                Notification {
                    setup_id: Some(SetupId(8)),
                    comment_id: Some(CommentId(5)),
                    ..notice(NotificationKind::Comment)
                },
                "Someone commented on your setup",
                Some("/community/setup/8"),
            ),
            (
                Notification {
                    setup_id: Some(SetupId(9)),
                    setup_title: Some("Neon Den".into()),
                    excerpt: Some("Neon Den".into()),
                    ..notice(NotificationKind::TopWeek)
                },
                "Your setup “Neon Den” reached this week's top 3!",
                Some("/community/setup/9"),
            ),
            (
                Notification { excerpt: Some("Neon Den".into()), ..notice(NotificationKind::PostRemoved) },
                "A moderator removed your post “Neon Den”",
                None,
            ),
            (notice(NotificationKind::CommentRemoved), "A moderator removed your comment", None),
            (
                Notification {
                    setup_id: Some(SetupId(8)),
                    excerpt: Some("Nice lamp".into()),
                    ..notice(NotificationKind::ReportDismissed)
                },
                "A moderator reviewed “Nice lamp” you reported and kept it.",
                Some("/community/setup/8"),
            ),
            (
                Notification { excerpt: Some("Spam rig".into()), ..notice(NotificationKind::ReportUpheld) },
                "A moderator removed “Spam rig” you reported. Thank you.",
                None,
            ),
            (
                Notification {
                    excerpt: Some("Merch store".into()),
                    ..notice(NotificationKind::RigpageLinkDead)
                },
                "A link on your RigPage, “Merch store”, stopped working: fix or remove it.",
                Some("/rigpage-config"),
            ),
            (
                Notification {
                    setup_id: Some(SetupId(9)),
                    setup_title: Some("Neon Den".into()),
                    excerpt: Some("Monitor arm".into()),
                    ..notice(NotificationKind::GearLinkDead)
                },
                "The gear link of “Monitor arm” on your post “Neon Den” stopped working: fix or remove it.",
                Some("/community/setup/9"),
            ),
        ];
        for (notification, sentence, path) in cases {
            assert_eq!(notification.sentence(), sentence);
            assert_eq!(notification.path().as_deref(), path, "{sentence}");
        }
    }
}
