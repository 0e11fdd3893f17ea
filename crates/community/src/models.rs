//! Rows of the tables the community crate owns.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use setupiq_core::{AnalysisId, CommentId, GearId, NotificationId, SetupId, UserId};
use setupiq_db::schema::{
    community_comment_reports, community_comments, community_images, community_reports, community_setups,
    community_votes, digest_subscriptions, notifications, setup_gear, setup_gear_clicks,
};
use setupiq_rigpage::service::link_health::LinkHealth;

setupiq_db::text_enum! {
    /// Why a setup is reported (spec §5 "Report").
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum ReportReason {
        IllegalContent = "illegal_content",
        HateSpeech = "hate_speech",
        Copyright = "copyright",
        Spam = "spam",
        Harassment = "harassment",
        /// Something else: the report's details say what.
        Other = "other",
    }
}

setupiq_db::text_enum! {
    /// What a piece of gear on a post is (issue 59).
    #[derive(Serialize, Deserialize, utoipa::ToSchema, PartialOrd, Ord)]
    #[serde(rename_all = "lowercase")]
    pub enum GearCategory {
        Monitor = "monitor",
        Keyboard = "keyboard",
        Mouse = "mouse",
        Headset = "headset",
        Chair = "chair",
        Desk = "desk",
        Lighting = "lighting",
        Audio = "audio",
        Pc = "pc",
        Other = "other",
    }
}

impl GearCategory {
    /// The name people read ("Monitor", "PC").
    pub fn label(self) -> &'static str {
        match self {
            GearCategory::Monitor => "Monitor",
            GearCategory::Keyboard => "Keyboard",
            GearCategory::Mouse => "Mouse",
            GearCategory::Headset => "Headset",
            GearCategory::Chair => "Chair",
            GearCategory::Desk => "Desk",
            GearCategory::Lighting => "Lighting",
            GearCategory::Audio => "Audio",
            GearCategory::Pc => "PC",
            GearCategory::Other => "Other",
        }
    }
}

setupiq_db::text_enum! {
    /// What a notification tells its recipient.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "snake_case")]
    pub enum NotificationKind {
        /// Someone commented on the recipient's setup.
        Comment = "comment",
        /// Someone replied to the recipient's comment.
        Reply = "reply",
        /// A moderator removed the recipient's post.
        PostRemoved = "post_removed",
        /// A moderator removed the recipient's comment.
        CommentRemoved = "comment_removed",
        /// A moderator removed what the recipient reported.
        ReportUpheld = "report_upheld",
        /// A moderator reviewed what the recipient reported and kept it.
        ReportDismissed = "report_dismissed",
        /// The recipient's setup reached the week's top 3 (once per setup).
        TopWeek = "top_week",
        /// A link on the recipient's RigPage failed its daily check twice in a row.
        RigpageLinkDead = "rigpage_link_dead",
        /// The link of a piece of gear on the recipient's post failed its daily check twice
        /// in a row.
        GearLinkDead = "gear_link_dead",
    }
}

setupiq_db::text_enum! {
    /// Where a report stands: open until an admin dismisses or upholds it.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum ReportStatus {
        Open = "open",
        Dismissed = "dismissed",
        Upheld = "upheld",
    }
}

/// What the owner writes on a post: its title and description (trimmed, none when empty).
/// One value from the request to the row and back out to every response that shows it
/// (`#[serde(flatten)]`: its fields sit beside the others in the JSON); a new text field is
/// added here, to its column and to the requests' rules.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Eq,
    Queryable,
    Selectable,
    Insertable,
    AsChangeset,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[diesel(table_name = community_setups, treat_none_as_null = true)]
#[serde(rename_all = "camelCase")]
pub struct PostText {
    pub title: Option<String>,
    pub description: Option<String>,
}

impl PostText {
    /// Each text trimmed, none when empty.
    #[must_use]
    pub fn trimmed(self) -> Self {
        let trim = |value: Option<String>| value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        Self { title: trim(self.title), description: trim(self.description) }
    }

    /// The title people read: "Untitled" when there is none.
    pub fn title_or_untitled(&self) -> &str {
        self.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or("Untitled")
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_setups)]
pub(crate) struct SetupInsertForm {
    pub user_id: UserId,
    pub analysis_id: AnalysisId,
    #[diesel(embed)]
    pub text: PostText,
    pub score: i32,
    pub upvotes: i32,
    pub open_reports: i32,
    pub hidden: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = community_setups)]
pub(crate) struct SetupRow {
    pub id: SetupId,
    pub user_id: UserId,
    pub analysis_id: AnalysisId,
    #[diesel(embed)]
    pub text: PostText,
    pub score: i32,
    pub upvotes: i32,
    pub open_reports: i32,
    pub hidden: bool,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_images)]
pub(crate) struct ImageInsertForm<'a> {
    pub setup_id: SetupId,
    pub position: i32,
    pub image_key: &'a str,
    pub thumbnail_key: Option<&'a str>,
    pub owned: bool,
    pub is_before: bool,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = community_images)]
pub(crate) struct ImageRow {
    pub setup_id: SetupId,
    pub image_key: String,
    pub thumbnail_key: Option<String>,
    pub owned: bool,
    pub is_before: bool,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_votes)]
pub(crate) struct VoteInsertForm {
    pub setup_id: SetupId,
    pub user_id: UserId,
    pub value: i32,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_reports)]
pub(crate) struct ReportInsertForm<'a> {
    pub setup_id: SetupId,
    pub reporter_id: UserId,
    pub reason: ReportReason,
    pub details: Option<&'a str>,
    pub status: ReportStatus,
    pub created_at: NaiveDateTime,
    pub reporter_address: Option<&'a str>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = community_reports)]
pub(crate) struct ReportRow {
    pub setup_id: SetupId,
    pub reporter_id: UserId,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub created_at: NaiveDateTime,
}

/// A report as the member who made it sees it (their data export).
#[derive(Debug, Queryable)]
pub(crate) struct MadeReportRow {
    pub setup_id: SetupId,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub status: ReportStatus,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_comments)]
pub(crate) struct CommentInsertForm<'a> {
    pub setup_id: SetupId,
    pub parent_id: Option<CommentId>,
    pub user_id: Option<UserId>,
    pub body: &'a str,
    pub deleted: bool,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = community_comments)]
pub(crate) struct CommentRow {
    pub id: CommentId,
    pub setup_id: SetupId,
    pub parent_id: Option<CommentId>,
    /// None once its author deleted it (or their account) while it had replies.
    pub user_id: Option<UserId>,
    pub body: String,
    pub deleted: bool,
    pub created_at: NaiveDateTime,
    pub edited_at: Option<NaiveDateTime>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = community_comment_reports)]
pub(crate) struct CommentReportInsertForm<'a> {
    pub comment_id: CommentId,
    pub reporter_id: UserId,
    pub reason: ReportReason,
    pub details: Option<&'a str>,
    pub status: ReportStatus,
    pub created_at: NaiveDateTime,
    pub reporter_address: Option<&'a str>,
}

/// A comment report as the member who made it sees it (their data export).
#[derive(Debug, Queryable)]
pub(crate) struct MadeCommentReportRow {
    pub comment_id: CommentId,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub status: ReportStatus,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = community_comment_reports)]
pub(crate) struct CommentReportRow {
    pub comment_id: CommentId,
    pub reporter_id: UserId,
    pub reason: ReportReason,
    pub details: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = notifications)]
pub(crate) struct NotificationInsertForm<'a> {
    pub user_id: UserId,
    pub kind: NotificationKind,
    pub actor_id: Option<UserId>,
    /// The setup it is about, while it stands.
    pub setup_id: Option<SetupId>,
    /// The comment (a comment or a reply); none for a moderator's decision.
    pub comment_id: Option<CommentId>,
    /// What a moderator's decision was about, as it was then (a title, a comment's start).
    pub subject: Option<&'a str>,
    pub created_at: NaiveDateTime,
}

/// A member's subscription to the daily e-mail digest.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = digest_subscriptions)]
pub(crate) struct DigestSubscriptionRow {
    pub user_id: UserId,
    /// The one-click unsubscribe link's secret.
    pub token: String,
    pub subscribed_at: NaiveDateTime,
    /// Notifications up to this time were mailed, or predate the subscription.
    pub covered_until: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = notifications)]
pub(crate) struct NotificationRow {
    pub id: NotificationId,
    pub kind: NotificationKind,
    pub actor_id: Option<UserId>,
    pub setup_id: Option<SetupId>,
    pub comment_id: Option<CommentId>,
    pub created_at: NaiveDateTime,
    pub read_at: Option<NaiveDateTime>,
    pub subject: Option<String>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = setup_gear)]
pub(crate) struct GearInsertForm<'a> {
    pub setup_id: SetupId,
    pub position: i32,
    pub name: &'a str,
    pub category: GearCategory,
    pub url: Option<&'a str>,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = setup_gear)]
pub(crate) struct GearRow {
    pub id: GearId,
    pub setup_id: SetupId,
    pub name: String,
    pub category: GearCategory,
    pub url: Option<String>,
    /// What the daily link check last saw of `url` (see `service::gear_link_health`).
    pub health: LinkHealth,
}

/// What the daily link check needs of a gear link: its post, the post's owner, the item's
/// name and what the checks saw so far.
#[derive(Debug, Clone, Queryable)]
pub(crate) struct GearLinkStateRow {
    pub setup_id: SetupId,
    pub owner_id: UserId,
    pub name: String,
    pub health: LinkHealth,
    pub consecutive_failures: i32,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = setup_gear_clicks)]
pub(crate) struct GearClickInsertForm<'a> {
    pub gear_id: GearId,
    pub setup_id: SetupId,
    pub user_id: Option<UserId>,
    pub category: GearCategory,
    pub network: &'a str,
    pub is_bot: bool,
    pub created_at: NaiveDateTime,
}
