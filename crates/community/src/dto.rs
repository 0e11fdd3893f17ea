//! Request and response bodies of the community endpoints. Ids are plain numbers here, as
//! on the wire: the `range` rules and the OpenAPI schema work on them. Handlers wrap what
//! they read into `setupiq_core::ids`; the `From` impls unwrap what they answer.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use setupiq_auth::Account;
use utoipa::{IntoParams, ToSchema};
use validator::{Validate, ValidationError};

use crate::service::comments::{self, Comment};
use crate::service::feed::{FeedItem, FeedPage, FeedQuery, Period, Sort};
use crate::service::gear::{self as gear_rules, GearCategory, GearItem, OwnGearItem};
use crate::service::leaderboard::Leader;
use crate::service::my_posts::{MyPost, PostSummary};
use crate::service::notifications::{Notification, NotificationKind};
use crate::service::profiles::Profile;
use crate::service::reports::ReportReason;
use crate::service::setups::PostText;
use crate::service::votes::Vote;

fn fail(code: &'static str, message: &'static str) -> Result<(), ValidationError> {
    Err(ValidationError::new(code).with_message(message.into()))
}

fn title_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > 200 {
        fail("length", "Title cannot exceed 200 characters.")
    } else {
        Ok(())
    }
}

fn description_rules(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > 500 {
        fail("length", "Description cannot exceed 500 characters.")
    } else {
        Ok(())
    }
}

/// A post's photos: at most 5, each a data URL (a new photo) or a `/media/` URL (kept).
fn post_images(images: &[String]) -> Result<(), ValidationError> {
    if images.len() > 5 {
        return fail("length", "Maximum 5 images allowed.");
    }
    if images.iter().any(|i| !i.starts_with("data:image/") && !i.starts_with("/media/")) {
        return fail("data_url", "Each image must be a valid data URL.");
    }
    Ok(())
}

/// A post's photo as the document states it ([`post_images`]): a data URL or one of our
/// `/media/` URLs; the request carries plain strings.
#[derive(ToSchema)]
#[schema(pattern = "^(data:image/|/media/)[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$")]
#[allow(dead_code)]
pub struct PostImage(String);

/// An edit's photos: 1 to 5, each a data URL or one of the setup's photo URLs.
fn edit_images(images: &[String]) -> Result<(), ValidationError> {
    if images.is_empty() {
        return fail("length", "At least 1 image is required.");
    }
    post_images(images)
}

fn vote_value(value: i64) -> Result<(), ValidationError> {
    if Vote::from_value(value).is_some() { Ok(()) } else { fail("value", "Vote must be 1 or -1.") }
}

fn reason_rules(value: &str) -> Result<(), ValidationError> {
    if value.parse::<ReportReason>().is_ok() {
        Ok(())
    } else {
        fail("reason", "Please select a valid reason category.")
    }
}

/// A text trimmed, none when empty.
pub fn text(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

/// `GET /_api/community/setups`.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct SetupsQuery {
    /// `week` (the last 7 days), `month` (30 days) or `all`.
    #[serde(default)]
    pub filter: Period,
    /// `top` (score, then the newer), `new` or `hot`.
    #[serde(default)]
    pub sort: Sort,
    /// 1 to 50.
    #[serde(default = "twenty")]
    #[validate(range(min = 1, max = 50, message = "Limit must be between 1 and 50."))]
    #[param(minimum = 1, maximum = 50)]
    pub limit: i64,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset cannot be negative."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

fn twenty() -> i64 {
    20
}

fn fifty() -> i64 {
    50
}

/// `GET /_api/community/leaderboard`.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// `week` (the last 7 days), `month` (30 days) or `all`.
    #[serde(default)]
    pub filter: Period,
    /// 1 to 100.
    #[serde(default = "fifty")]
    #[validate(range(min = 1, max = 100, message = "Limit must be between 1 and 100."))]
    #[param(minimum = 1, maximum = 100)]
    pub limit: i64,
}

/// `GET /_api/community/user-profile`.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ProfileQuery {
    #[validate(range(min = 1, message = "User ID must be a positive integer."))]
    #[param(minimum = 1)]
    pub user_id: i64,
}

/// Publishes one of the caller's analyses.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PublishRequest {
    #[validate(range(min = 1, message = "Analysis ID is required."))]
    #[schema(minimum = 1)]
    pub analysis_id: i64,
    /// The photos in order: data URLs of new ones (JPEG, PNG or WebP, at most 5 MB each)
    /// and, to place it among them, the URL of the analysis's own photo (`inputData`), kept
    /// as it is. None: the analysis's own photo alone.
    #[serde(default)]
    #[validate(custom(function = "post_images"))]
    #[schema(max_items = 5, value_type = Vec<PostImage>)]
    pub images: Vec<String>,
    #[validate(custom(function = "title_rules"))]
    #[schema(max_length = 200)]
    pub title: Option<String>,
    #[validate(custom(function = "description_rules"))]
    #[schema(max_length = 500)]
    pub description: Option<String>,
    /// Also show the photo of the analysis this one re-rates (its `previousAnalysisId`),
    /// copied into the post as its second photo and marked as the before photo
    /// (`beforeImageIndex`); it counts towards the 5. Ignored when there is none to show:
    /// a described setup, not a re-rating, or the earlier analysis deleted or described.
    #[serde(default)]
    pub with_before_photo: bool,
}

/// Edits one of the caller's setups within an hour of publishing.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditRequest {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    /// 1 to 5, in order: URLs of the setup's photos to keep, or data URLs of new ones.
    #[validate(custom(function = "edit_images"))]
    #[schema(min_items = 1, max_items = 5, value_type = Vec<PostImage>)]
    pub images: Vec<String>,
    #[validate(custom(function = "title_rules"))]
    #[schema(max_length = 200)]
    pub title: Option<String>,
    #[validate(custom(function = "description_rules"))]
    #[schema(max_length = 500)]
    pub description: Option<String>,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteRequest {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
}

/// The same value again takes the vote back; the other switches it.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct VoteRequest {
    #[validate(range(min = 1, message = "A valid setup ID is required."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    /// Up or down.
    // A number checked by hand, so that another one gets the specification's message.
    #[validate(custom(function = "vote_value"))]
    #[schema(value_type = Vote)]
    pub value: i64,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReportRequest {
    #[validate(range(min = 1, message = "A valid setup ID is required."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    /// Why it is reported.
    // A string checked by hand rather than a `ReportReason` field, so that a wrong value gets
    // the specification's message; the document still names the values.
    #[validate(custom(function = "reason_rules"))]
    #[schema(value_type = ReportReason)]
    pub reason: String,
    #[validate(custom(function = "description_rules_for_details"))]
    #[schema(max_length = 500)]
    pub additional_details: Option<String>,
}

fn description_rules_for_details(value: &str) -> Result<(), ValidationError> {
    if value.trim().chars().count() > 500 {
        fail("length", "Additional details cannot exceed 500 characters.")
    } else {
        Ok(())
    }
}

/// The analysis behind a setup.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupAnalysisDto {
    pub id: i64,
    pub overall_rating: f64,
    pub improvement_suggestions: Vec<String>,
}

/// A setup in the community (spec §3 "Community setup").
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommunitySetupDto {
    pub id: i64,
    /// The first photo.
    pub image_url: Option<String>,
    /// Every photo, in order.
    pub images: Vec<String>,
    /// The photos' thumbnails, in the same order.
    pub thumbnails: Vec<Option<String>>,
    /// Which of `images` shows the setup before (a post of a re-rated analysis with the
    /// photo it was re-rated from); the others show it as it is now. None: no before photo.
    #[schema(minimum = 0)]
    pub before_image_index: Option<usize>,
    #[serde(flatten)]
    #[schema(inline)]
    pub text: PostText,
    /// The sum of the votes.
    pub score: i32,
    /// The viewer's vote, none when they have not voted.
    #[schema(value_type = Option<Vote>)]
    pub user_vote: Option<i32>,
    /// Comments under it (deleted ones aside).
    pub comment_count: i64,
    pub uploader_id: i64,
    /// Only on the viewer's own setups.
    pub uploader_email: Option<String>,
    pub uploader_username: String,
    pub uploader_display_name: String,
    pub uploader_profile_picture: Option<String>,
    pub uploader_is_pro: bool,
    /// The uploader's RigPage, when it is live and shown on the community.
    pub uploader_rig_page_slug: Option<String>,
    pub uploader_shows_rig_page: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub analysis: Option<SetupAnalysisDto>,
    /// Its gear, in the owner's order. An item with `hasLink` is shopped through
    /// `/go/gear/{id}`; the URL itself is never sent.
    pub gear: Vec<GearItemDto>,
}

/// A piece of gear on a post, as everyone sees it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GearItemDto {
    pub id: i64,
    pub name: String,
    pub category: GearCategory,
    /// `/go/gear/{id}` leads somewhere: the owner's link, or the affiliate link of the
    /// catalogue product the name matches.
    pub has_link: bool,
}

impl From<GearItem> for GearItemDto {
    fn from(item: GearItem) -> Self {
        Self { id: item.id.0, name: item.name, category: item.category, has_link: item.has_link }
    }
}

/// A piece of gear as the owner sends it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GearItemRequest {
    /// 1 to 80 characters after trimming.
    #[schema(min_length = 1, max_length = 80)]
    pub name: String,
    pub category: GearCategory,
    /// Where to buy it: an `http` or `https` address of a public website; empty or none for
    /// no link of its own.
    #[schema(max_length = 2048)]
    pub url: Option<String>,
}

fn gear_items(items: &[GearItemRequest]) -> Result<(), ValidationError> {
    if items.len() > gear_rules::MAX_ITEMS {
        return fail("length", "A setup can list at most 20 pieces of gear.");
    }
    for item in items {
        let name = item.name.trim().chars().count();
        if name == 0 || name > gear_rules::MAX_NAME {
            return fail("length", "Each piece of gear needs a name of 1 to 80 characters.");
        }
        let url = item.url.as_deref().map(str::trim).unwrap_or_default();
        if !url.is_empty() && !gear_rules::is_allowed_url(url) {
            return fail("url", "Gear links must be http or https addresses of a public website.");
        }
    }
    Ok(())
}

/// Replaces the whole gear list of one of the caller's setups.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GearRequest {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    /// The list in order; empty removes it.
    #[validate(custom(function = "gear_items"))]
    #[schema(max_items = 20)]
    pub items: Vec<GearItemRequest>,
}

/// A piece of gear as its owner sees it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnGearItemDto {
    pub id: i64,
    pub name: String,
    pub category: GearCategory,
    pub url: Option<String>,
    pub has_link: bool,
    /// People's clicks on it (bots and the owner never count).
    pub clicks: i64,
    /// The daily link check found its own link dead (failed twice in a row): the editor
    /// marks it "Not working" until it answers again or the list is replaced.
    pub link_dead: bool,
}

impl From<OwnGearItem> for OwnGearItemDto {
    fn from(item: OwnGearItem) -> Self {
        Self {
            id: item.id.0,
            name: item.name,
            category: item.category,
            url: item.url,
            has_link: item.has_link,
            clicks: item.clicks,
            link_dead: item.link_dead,
        }
    }
}

/// The gear of one of the caller's setups.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnGearResponse {
    pub items: Vec<OwnGearItemDto>,
}

impl From<FeedItem> for CommunitySetupDto {
    fn from(item: FeedItem) -> Self {
        Self {
            id: item.id.0,
            image_url: item.images.first().map(|i| i.image.url()),
            images: item.images.iter().map(|i| i.image.url()).collect(),
            thumbnails: item.images.iter().map(|i| i.thumbnail.as_ref().map(|t| t.url())).collect(),
            before_image_index: item.images.iter().position(|i| i.is_before),
            text: item.text,
            score: item.score,
            user_vote: item.user_vote.map(Vote::value),
            comment_count: item.comment_count,
            uploader_id: item.uploader.id.0,
            uploader_email: item.uploader.email,
            uploader_username: item.uploader.username,
            uploader_display_name: item.uploader.display_name,
            uploader_profile_picture: item.uploader.profile_picture,
            uploader_is_pro: item.uploader.is_pro,
            uploader_shows_rig_page: item.uploader.rigpage_slug.is_some(),
            uploader_rig_page_slug: item.uploader.rigpage_slug,
            created_at: item.created_at,
            updated_at: item.updated_at,
            analysis: item.analysis.map(|a| SetupAnalysisDto {
                id: a.id.0,
                overall_rating: a.overall_rating,
                improvement_suggestions: a.improvement_suggestions,
            }),
            gear: item.gear.into_iter().map(GearItemDto::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub total: i64,
    pub limit: i64,
    pub offset: i64,
    pub has_more: bool,
}

impl Pagination {
    /// A page at `offset` that shows `shown` of `total` items.
    pub fn of(total: i64, limit: i64, offset: i64, shown: usize) -> Self {
        let shown = i64::try_from(shown).unwrap_or(i64::MAX);
        Self { total, limit, offset, has_more: offset.saturating_add(shown) < total }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetupsResponse {
    pub setups: Vec<CommunitySetupDto>,
    pub pagination: Pagination,
    /// How many of the period's setups the signed-in viewer reported: hidden from them, so
    /// their feed can be empty while others' is not (0 for a visitor).
    pub reported_by_you: i64,
}

/// The body of a feed page (what [`Feed::page`](crate::service::feed::Feed::page) keeps for
/// visitors): [`SetupsResponse`], written from its items by [`page_body_of_parts`].
pub(crate) fn page_body(
    page: FeedPage,
    query: &FeedQuery,
) -> Result<actix_web::web::Bytes, serde_json::Error> {
    let items = page.items.into_iter().map(item_json).collect::<Result<Vec<_>, _>>()?;
    page_body_of_parts(&items, page.total, page.reported_by_viewer, query)
}

/// One feed item as it is sent (a part of a page body that can be kept and reused).
pub(crate) fn item_json(item: FeedItem) -> Result<actix_web::web::Bytes, serde_json::Error> {
    Ok(serde_json::to_vec(&CommunitySetupDto::from(item))?.into())
}

/// A page body ([`SetupsResponse`]) from its items already serialised.
pub(crate) fn page_body_of_parts(
    items: &[actix_web::web::Bytes],
    total: i64,
    reported_by_you: i64,
    query: &FeedQuery,
) -> Result<actix_web::web::Bytes, serde_json::Error> {
    let pagination = serde_json::to_vec(&Pagination::of(total, query.limit, query.offset, items.len()))?;
    let mut body =
        Vec::with_capacity(items.iter().map(|i| i.len() + 1).sum::<usize>() + pagination.len() + 64);
    body.extend_from_slice(b"{\"setups\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(item);
    }
    body.extend_from_slice(b"],\"pagination\":");
    body.extend_from_slice(&pagination);
    body.extend_from_slice(format!(",\"reportedByYou\":{reported_by_you}}}").as_bytes());
    Ok(body.into())
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishResponse {
    pub success: bool,
    pub setup_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SuccessResponse {
    pub success: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoteResponse {
    /// The setup's score after the vote.
    pub score: i32,
    /// The caller's vote now, none when it was taken back.
    #[schema(value_type = Option<Vote>)]
    pub user_vote: Option<i32>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReportResponse {
    pub success: bool,
    /// False when the caller had already reported this setup (nothing counted).
    pub counted: bool,
}

/// One entry of the leaderboard.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeaderDto {
    pub user_id: i64,
    /// The member's handle (`@username`).
    pub username: String,
    /// The name shown for the member, as on their posts and profile.
    pub display_name: String,
    /// Only on the viewer's own entry.
    pub email: Option<String>,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    pub total_score: i64,
    pub setup_count: i64,
    pub top_setup_image_url: Option<String>,
    pub top_setup_score: Option<i32>,
}

impl From<Leader> for LeaderDto {
    fn from(l: Leader) -> Self {
        Self {
            user_id: l.user_id.0,
            username: l.username,
            display_name: l.display_name,
            email: l.email,
            profile_picture: l.profile_picture,
            is_pro: l.is_pro,
            total_score: l.total_score,
            setup_count: l.setup_count,
            top_setup_image_url: l.top_setup_image_url,
            top_setup_score: l.top_setup_score,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyPostDto {
    pub id: i64,
    #[serde(flatten)]
    #[schema(inline)]
    pub text: PostText,
    pub created_at: DateTime<Utc>,
    pub score: i32,
    pub image_count: usize,
    /// Comments under it (deleted ones aside).
    pub comment_count: i64,
    pub analysis_id: i64,
    pub thumbnail_url: Option<String>,
    /// Hidden from others until an admin reviews its reports.
    pub hidden: bool,
    /// People's clicks on its gear's links (bots and the owner never count).
    pub gear_clicks: i64,
}

impl From<MyPost> for MyPostDto {
    fn from(p: MyPost) -> Self {
        Self {
            id: p.id.0,
            text: p.text,
            created_at: p.created_at,
            score: p.score,
            image_count: p.image_count,
            comment_count: p.comment_count,
            analysis_id: p.analysis_id.0,
            thumbnail_url: p.thumbnail_url,
            hidden: p.hidden,
            gear_clicks: p.gear_clicks,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostSummaryDto {
    pub total_posts: i64,
    pub total_upvotes: i64,
    /// The mean SetupIQ Score of the posted setups, one decimal.
    pub average_score: Option<f64>,
    pub best_post_score: Option<f64>,
}

impl From<PostSummary> for PostSummaryDto {
    fn from(s: PostSummary) -> Self {
        Self {
            total_posts: s.total_posts,
            total_upvotes: s.total_upvotes,
            average_score: s.average_score,
            best_post_score: s.best_post_score,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MyPostsResponse {
    pub posts: Vec<MyPostDto>,
    pub summary: PostSummaryDto,
}

/// A public profile's user (never an e-mail).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUserDto {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub profile_picture: Option<String>,
    pub is_pro: bool,
    pub created_at: DateTime<Utc>,
}

impl From<&Account> for ProfileUserDto {
    fn from(a: &Account) -> Self {
        Self {
            id: a.id.0,
            username: a.username.clone(),
            display_name: a.display_name.clone(),
            profile_picture: a.profile_picture.clone(),
            is_pro: a.is_pro,
            created_at: a.created_at,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileStatsDto {
    pub total_posts: i64,
    pub total_likes: i64,
    pub average_score: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ProfileRigPageDto {
    pub enabled: bool,
    pub slug: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileResponse {
    pub user: ProfileUserDto,
    pub stats: ProfileStatsDto,
    pub rig_page: ProfileRigPageDto,
    pub recent_posts: Vec<CommunitySetupDto>,
}

impl From<Profile> for ProfileResponse {
    fn from(p: Profile) -> Self {
        Self {
            user: (&p.account).into(),
            stats: ProfileStatsDto {
                total_posts: p.total_posts,
                total_likes: p.total_likes,
                average_score: p.average_score,
            },
            rig_page: ProfileRigPageDto { enabled: p.rigpage_enabled, slug: p.rigpage_slug },
            recent_posts: p.recent_posts.into_iter().map(CommunitySetupDto::from).collect(),
        }
    }
}

/// `GET /_api/community/comments`.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CommentsQuery {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[param(minimum = 1)]
    pub setup_id: i64,
    /// Threads per page, 1 to 50.
    #[serde(default = "twenty")]
    #[validate(range(min = 1, max = 50, message = "Limit must be between 1 and 50."))]
    #[param(minimum = 1, maximum = 50)]
    pub limit: i64,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset cannot be negative."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

fn comment_rules(value: &str) -> Result<(), ValidationError> {
    let length = value.trim().chars().count();
    if length == 0 || length > comments::MAX_CHARS {
        fail("length", "Comment must be between 1 and 1000 characters.")
    } else {
        Ok(())
    }
}

/// A new comment under a setup, or a reply (`parentId`; a reply to a reply joins its thread).
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommentRequest {
    #[validate(range(min = 1, message = "Setup ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub setup_id: i64,
    /// Plain text, 1 to 1000 characters after trimming.
    #[validate(custom(function = "comment_rules"))]
    #[schema(
        min_length = 1,
        max_length = 1000,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub body: String,
    #[validate(range(min = 1, message = "Comment ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub parent_id: Option<i64>,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommentEditRequest {
    #[validate(range(min = 1, message = "Comment ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub comment_id: i64,
    #[validate(custom(function = "comment_rules"))]
    #[schema(
        min_length = 1,
        max_length = 1000,
        pattern = "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F][^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$"
    )]
    pub body: String,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommentDeleteRequest {
    #[validate(range(min = 1, message = "Comment ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub comment_id: i64,
}

#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommentReportRequest {
    #[validate(range(min = 1, message = "Comment ID must be a positive integer."))]
    #[schema(minimum = 1)]
    pub comment_id: i64,
    /// Why it is reported.
    // A string checked by hand rather than a `ReportReason` field, so that a wrong value gets
    // the specification's message; the document still names the values.
    #[validate(custom(function = "reason_rules"))]
    #[schema(value_type = ReportReason)]
    pub reason: String,
    #[validate(custom(function = "description_rules_for_details"))]
    #[schema(max_length = 500)]
    pub additional_details: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentedResponse {
    pub success: bool,
    pub comment_id: i64,
}

/// A comment; a deleted one (shown as "[deleted]") has no author and no body.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentDto {
    pub id: i64,
    pub parent_id: Option<i64>,
    pub deleted: bool,
    pub body: Option<String>,
    pub author_id: Option<i64>,
    pub author_username: Option<String>,
    pub author_display_name: Option<String>,
    pub author_profile_picture: Option<String>,
    pub author_is_pro: bool,
    pub created_at: DateTime<Utc>,
    /// When the author last edited it.
    pub edited_at: Option<DateTime<Utc>>,
    /// The viewer wrote it (they may edit it within the hour, and delete it).
    pub mine: bool,
    /// Oldest first; always empty on a reply.
    #[schema(no_recursion)]
    pub replies: Vec<CommentDto>,
}

impl From<Comment> for CommentDto {
    fn from(c: Comment) -> Self {
        Self {
            id: c.id.0,
            parent_id: c.parent_id.map(|id| id.0),
            deleted: c.body.is_none(),
            body: c.body,
            author_id: c.author.as_ref().map(|a| a.id.0),
            author_username: c.author.as_ref().map(|a| a.username.clone()),
            author_display_name: c.author.as_ref().map(|a| a.display_name.clone()),
            author_profile_picture: c.author.as_ref().and_then(|a| a.profile_picture.clone()),
            author_is_pro: c.author.as_ref().is_some_and(|a| a.is_pro),
            created_at: c.created_at,
            edited_at: c.edited_at,
            mine: c.mine,
            replies: c.replies.into_iter().map(CommentDto::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommentsResponse {
    /// Threads, newest first, each with its replies.
    pub comments: Vec<CommentDto>,
    pub pagination: Pagination,
}

/// `GET /_api/notifications`.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct NotificationsQuery {
    /// 1 to 50.
    #[serde(default = "twenty")]
    #[validate(range(min = 1, max = 50, message = "Limit must be between 1 and 50."))]
    #[param(minimum = 1, maximum = 50)]
    pub limit: i64,
    #[serde(default)]
    #[validate(range(min = 0, message = "Offset cannot be negative."))]
    #[param(minimum = 0)]
    pub offset: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationDto {
    pub id: i64,
    pub kind: NotificationKind,
    /// Who commented (none once their account is gone, and for a moderator's decision).
    pub actor_name: Option<String>,
    /// The setup it is about (`/community/setup/{setupId}`), while it stands.
    pub setup_id: Option<i64>,
    pub setup_title: Option<String>,
    /// The comment (`comment` and `reply`).
    pub comment_id: Option<i64>,
    /// The start of the comment (none once it was deleted); for a moderator's decision
    /// (`post_removed`, `comment_removed`, `report_upheld`, `report_dismissed`), what it was
    /// about: the post's title or the start of the comment.
    pub excerpt: Option<String>,
    /// What happened, in one sentence, as the digest and the data export say it
    /// ("Gina replied to your comment on “Neon Den”").
    pub sentence: String,
    /// Where opening it leads in the app (the setup while it stands, the RigPage editor for a
    /// dead link), if anywhere.
    pub path: Option<String>,
    pub created_at: DateTime<Utc>,
    pub read: bool,
}

impl From<Notification> for NotificationDto {
    fn from(n: Notification) -> Self {
        Self {
            sentence: n.sentence(),
            path: n.path(),
            id: n.id.0,
            kind: n.kind,
            actor_name: n.actor,
            setup_id: n.setup_id.map(|id| id.0),
            setup_title: n.setup_title,
            comment_id: n.comment_id.map(|id| id.0),
            excerpt: n.excerpt,
            created_at: n.created_at,
            read: n.read,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationsResponse {
    /// Newest first.
    pub notifications: Vec<NotificationDto>,
    /// How many of all the member's notifications are unread (the bell's count).
    pub unread: i64,
    pub pagination: Pagination,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnreadResponse {
    pub unread: i64,
}

fn read_rules(request: &ReadRequest) -> Result<(), ValidationError> {
    match (&request.ids, request.all) {
        (Some(ids), None | Some(false)) if !ids.is_empty() && ids.len() <= 100 => Ok(()),
        (None, Some(true)) => Ok(()),
        _ => fail("choice", "Send either 1 to 100 notification ids or all: true."),
    }
}

/// Marks notifications read: `ids` (the member's own; others are ignored) or `all`.
#[derive(Debug, Deserialize, Validate)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[validate(schema(function = "read_rules"))]
pub struct ReadRequest {
    pub ids: Option<Vec<i64>>,
    pub all: Option<bool>,
}

/// The document states [`read_rules`]: one of 1 to 100 ids (`all` absent or false), or
/// `all: true` without ids (neither takes other fields: the document builder says so).
impl utoipa::PartialSchema for ReadRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
        let ids = ArrayBuilder::new()
            .items(ObjectBuilder::new().schema_type(Type::Integer).format(Some(
                utoipa::openapi::SchemaFormat::KnownFormat(utoipa::openapi::KnownFormat::Int64),
            )))
            .min_items(Some(1))
            .max_items(Some(100));
        let by_ids = ObjectBuilder::new()
            .property("ids", ids)
            .required("ids")
            .property("all", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([false])));
        let every = ObjectBuilder::new()
            .property("all", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])))
            .required("all");
        OneOfBuilder::new().item(by_ids).item(every).into()
    }
}

impl ToSchema for ReadRequest {}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadResponse {
    pub success: bool,
    /// How many of them were unread.
    pub marked: usize,
}

/// The member's e-mail settings for notifications.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationSettingsDto {
    /// A daily e-mail listing unread notifications (off unless the member turns it on).
    pub email_digest: bool,
    /// The digest needs a verified address.
    pub email_verified: bool,
}

/// `POST /_api/notifications/settings`.
#[derive(Debug, Deserialize, Validate, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationSettingsRequest {
    pub email_digest: bool,
}

/// `POST /_api/notifications/unsubscribe?token=…`: the digest's one-click unsubscribe link.
#[derive(Debug, Deserialize, Validate, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UnsubscribeQuery {
    /// The secret of the link mailed with the digest.
    #[validate(length(min = 1, max = 100, message = "This unsubscribe link is not valid."))]
    #[param(min_length = 1, max_length = 100)]
    pub token: String,
}
