//! The community endpoints (`/_api/community/…`).

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use setupiq_auth::extract::client_ip;
use setupiq_auth::{CurrentUser, OptionalUser, Session};
use setupiq_core::feed_changes::FeedChanges;
use setupiq_core::openapi::{InvalidInput, NotSignedIn};
use setupiq_core::validation::{ValidJson, ValidQuery};
use setupiq_core::{
    AnalysisId, ApiError, CommentId, Config, ErrorBody, GearId, NotificationId, SetupId, SharedClock, UserId,
    error,
};
use setupiq_db::{AppCtx, Db};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::dto::{
    CommentDeleteRequest, CommentDto, CommentEditRequest, CommentReportRequest, CommentRequest,
    CommentedResponse, CommentsQuery, CommentsResponse, CommunitySetupDto, DeleteRequest, EditRequest,
    GearRequest, LeaderDto, LeaderboardQuery, MyPostDto, MyPostsResponse, NotificationDto,
    NotificationSettingsDto, NotificationSettingsRequest, NotificationsQuery, NotificationsResponse,
    OwnGearItemDto, OwnGearResponse, Pagination, ProfileQuery, ProfileResponse, PublishRequest,
    PublishResponse, ReadRequest, ReadResponse, ReportRequest, ReportResponse, SetupsQuery, SetupsResponse,
    SuccessResponse, UnreadResponse, UnsubscribeQuery, VoteRequest, VoteResponse, text,
};
use crate::error::CommunityError;
use crate::service::comments::{self, Written};
use crate::service::digest;
use crate::service::feed::{self, Feed, FeedQuery};
use crate::service::gear::{self, Follower, NewGear};
use crate::service::notifications::{self, Read};
use crate::service::profiles;
use crate::service::publish::{self, MAX_IMAGE_BYTES, Post};
use crate::service::reports::{self, NewReport, ReportReason};
use crate::service::setups::{self, PostText};
use crate::service::votes::{self, Vote};

/// Five 5 MB photos as base64 in a JSON body, with room for the rest.
const POST_BODY_LIMIT: usize = 5 * (MAX_IMAGE_BYTES / 3 * 4 + 64) + 64 * 1024;

/// Mounts the endpoints at their full `/_api/community/…` paths.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(
        utoipa_actix_web::scope("/_api/community/setup")
            .app_data(web::JsonConfig::default().limit(POST_BODY_LIMIT).error_handler(post_body_error))
            .service(publish_setup)
            .service(edit_setup)
            .service(delete_setup),
    )
    .service(list_setups)
    .service(one_setup)
    .service(set_gear)
    .service(own_gear)
    .service(vote)
    .service(report)
    .service(leaderboard)
    .service(my_posts)
    .service(user_profile)
    .service(list_comments)
    .service(post_comment)
    .service(edit_comment)
    .service(delete_comment)
    .service(report_comment)
    .service(list_notifications)
    .service(unread_notifications)
    .service(read_notifications)
    .service(notification_settings)
    .service(change_notification_settings)
    .service(unsubscribe_digest);
}

/// Mounts the page visitors follow from a post's gear: `/go/gear/{id}`.
pub fn configure_pages(cfg: &mut web::ServiceConfig) {
    cfg.service(follow_gear);
}

/// An oversized body is oversized photos: say so in the dialog's words.
fn post_body_error(err: actix_web::error::JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    match err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            CommunityError::ImageTooLarge.into()
        }
        other => error::json_error_handler(other, req),
    }
}

/// The community feed: setups of the period, ranked (`top`: score, then the newer; `new`;
/// `hot`), with the viewer's votes; setups the viewer reported and hidden ones are left out.
#[utoipa::path(
    tag = "community",
    params(SetupsQuery),
    responses((status = 200, description = "A page of setups and the total", body = SetupsResponse))
)]
#[get("/_api/community/setups")]
async fn list_setups(
    session: Session,
    query: ValidQuery<SetupsQuery>,
    feed: web::Data<Feed>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let page = FeedQuery { period: query.filter, sort: query.sort, limit: query.limit, offset: query.offset };
    let body = feed.page(session, page).await?;
    Ok(HttpResponse::Ok().content_type(actix_web::http::header::ContentType::json()).body(body))
}

/// Publishes one of the caller's analyses with up to 5 photos (none: the analysis's own
/// photo; a described setup needs one). Every photo passes the safety classifier. A
/// re-rated photo analysis may also show the photo it was re-rated from (`withBeforePhoto`).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = PublishRequest,
    responses(
        (status = 200, description = "Published", body = PublishResponse),
        (status = 400, description = "Invalid field or photo", body = ErrorBody),
        NotSignedIn,
        (status = 404, description = "Not one of the caller's analyses", body = ErrorBody),
        (status = 413, description = "A photo is larger than 10 MB or 40 megapixels", body = ErrorBody),
        (status = 422, description = "A photo is not safe for work", body = ErrorBody),
        (status = 429, description = "Today's posts are used up, or this account's images are still being processed", body = ErrorBody),
        (status = 503, description = "The image queue is full (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("")]
async fn publish_setup(
    user: CurrentUser,
    body: ValidJson<PublishRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<PublishResponse>, ApiError> {
    let body = body.into_inner();
    let post = Post {
        text: PostText { title: body.title, description: body.description }.trimmed(),
        images: body.images,
        with_before_photo: body.with_before_photo,
    };
    let setup_id = publish::publish(&ctx, user.id(), AnalysisId(body.analysis_id), post).await?;
    Ok(web::Json(PublishResponse { success: true, setup_id: setup_id.0 }))
}

/// Edits one of the caller's setups within 1 hour of publishing: texts and 1 to 5 photos
/// (kept by URL, or new data URLs); dropped photos are deleted.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = EditRequest,
    responses(
        (status = 200, description = "Saved", body = SuccessResponse),
        (status = 400, description = "Invalid field or photo", body = ErrorBody),
        NotSignedIn,
        (status = 403, description = "Not the owner, or more than an hour after publishing", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
        (status = 413, description = "A photo is larger than 10 MB or 40 megapixels", body = ErrorBody),
        (status = 422, description = "A photo is not safe for work", body = ErrorBody),
        (status = 429, description = "This account's images are still being processed", body = ErrorBody),
        (status = 503, description = "The image queue is full (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/edit")]
async fn edit_setup(
    user: CurrentUser,
    body: ValidJson<EditRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let body = body.into_inner();
    let post = Post {
        text: PostText { title: body.title, description: body.description }.trimmed(),
        images: body.images,
        with_before_photo: false,
    };
    publish::edit(&ctx, user.id(), SetupId(body.setup_id), post).await?;
    Ok(web::Json(SuccessResponse { success: true }))
}

/// Deletes a setup with its photos, votes and reports (its owner, or an admin).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = DeleteRequest,
    responses(
        (status = 200, description = "Deleted", body = SuccessResponse),
        NotSignedIn,
        (status = 403, description = "Not the owner", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
    )
)]
#[post("/delete")]
async fn delete_setup(
    user: CurrentUser,
    body: ValidJson<DeleteRequest>,
    ctx: web::Data<AppCtx>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    setups::delete_post(&ctx, user.id(), user.account.is_admin(), SetupId(body.setup_id)).await?;
    Ok(web::Json(SuccessResponse { success: true }))
}

/// Votes on a setup: the same value again takes the vote back, the other switches it.
/// Needs a verified address.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = VoteRequest,
    responses(
        (status = 200, description = "The score after the vote", body = VoteResponse),
        NotSignedIn,
        (status = 403, description = "The address is not verified yet (\"Please verify your email address before voting.\"), or the caller's own setup", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
        (status = 429, description = "Today's votes are used up", body = ErrorBody),
    )
)]
#[post("/_api/community/vote")]
async fn vote(
    user: CurrentUser,
    body: ValidJson<VoteRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<VoteResponse>, ApiError> {
    let (voter, setup_id, now) = (user.account, SetupId(body.setup_id), clock.now());
    let value =
        Vote::from_value(body.value).ok_or_else(|| ApiError::invalid("value", "Vote must be 1 or -1."))?;
    let changes = changes.get_ref().clone();
    let voted = db.run(move |conn| votes::vote(conn, &voter, setup_id, value, now, &changes)).await?;
    Ok(web::Json(VoteResponse { score: voted.score, user_vote: voted.user_vote.map(Vote::value) }))
}

/// Reports a setup (anonymously to its uploader); a repeat of the caller's report counts
/// nothing. The caller no longer sees the setup. Every report reaches the admins; three
/// from established accounts (verified address, a day old, an analysis saved) hide the
/// setup until an admin reviews it. At most 20 reports a day per user and per network.
/// Needs a verified address.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = ReportRequest,
    responses(
        (status = 200, description = "Reported", body = ReportResponse),
        NotSignedIn,
        (status = 403, description = "The address is not verified yet (\"Please verify your email address before reporting.\"), or the caller's own setup", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
        (status = 429, description = "Today's reports are used up (the caller's or the network's; see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/_api/community/report")]
async fn report(
    req: HttpRequest,
    user: CurrentUser,
    body: ValidJson<ReportRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<ReportResponse>, ApiError> {
    let body = body.into_inner();
    let reason = report_reason(&body.reason)?;
    let (reporter, setup_id, now) = (user.account, SetupId(body.setup_id), clock.now());
    let (details, ip) = (text(body.additional_details), client_ip(&req));
    let changes = changes.get_ref().clone();
    let reported = db
        .run(move |conn| {
            let new = NewReport { reason, details: details.as_deref(), ip: ip.as_deref() };
            reports::report(conn, &reporter, setup_id, new, now, &changes)
        })
        .await?;
    Ok(web::Json(ReportResponse { success: true, counted: reported.counted }))
}

fn report_reason(reason: &str) -> Result<ReportReason, ApiError> {
    reason.parse().map_err(|_| ApiError::invalid("reason", "Please select a valid reason category."))
}

/// Users ranked by the summed score of their setups published in the period.
#[utoipa::path(
    tag = "community",
    params(LeaderboardQuery),
    responses((status = 200, description = "The leaderboard", body = Vec<LeaderDto>))
)]
#[get("/_api/community/leaderboard")]
async fn leaderboard(
    viewer: OptionalUser,
    query: ValidQuery<LeaderboardQuery>,
    feed: web::Data<Feed>,
) -> Result<web::Json<Vec<LeaderDto>>, ApiError> {
    let board = feed.leaderboard(query.filter, query.limit).await?;
    // The viewer's own e-mail, on their own entry only.
    let entries = board
        .iter()
        .cloned()
        .map(|mut leader| {
            if let Some(me) = viewer.0.as_ref().filter(|me| me.id() == leader.user_id) {
                leader.email = Some(me.account.email.clone());
            }
            LeaderDto::from(leader)
        })
        .collect();
    Ok(web::Json(entries))
}

/// The caller's posts (hidden ones too), newest first, and their summary.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    responses((status = 200, description = "Posts and summary", body = MyPostsResponse), NotSignedIn)
)]
#[get("/_api/community/my-posts/analytics")]
async fn my_posts(user: CurrentUser, db: web::Data<Db>) -> Result<web::Json<MyPostsResponse>, ApiError> {
    let user_id = user.id();
    let (posts, summary) = db.run(move |conn| crate::service::my_posts::list(conn, user_id)).await?;
    Ok(web::Json(MyPostsResponse {
        posts: posts.into_iter().map(MyPostDto::from).collect(),
        summary: summary.into(),
    }))
}

/// A user's public profile: name, stats, RigPage and recent posts (never an e-mail).
#[utoipa::path(
    tag = "community",
    params(ProfileQuery),
    responses(
        (status = 200, description = "The profile", body = ProfileResponse),
        (status = 404, description = "No such user", body = ErrorBody),
    )
)]
#[get("/_api/community/user-profile")]
async fn user_profile(
    viewer: OptionalUser,
    query: ValidQuery<ProfileQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<ProfileResponse>, ApiError> {
    let (viewer, user_id) = (viewer.0.as_ref().map(CurrentUser::id), UserId(query.user_id));
    let profile = db.run(move |conn| profiles::find(conn, viewer, user_id)).await?;
    profile.map(|p| web::Json(p.into())).ok_or_else(|| ApiError::not_found("User not found."))
}

/// The comments under a setup the viewer may see: threads newest first, each with its
/// replies oldest first; the viewer's own are marked.
#[utoipa::path(
    tag = "community",
    params(CommentsQuery),
    responses(
        (status = 200, description = "A page of threads and how many there are", body = CommentsResponse),
        (status = 404, description = "No such setup, or not one the viewer may see", body = ErrorBody),
    )
)]
#[get("/_api/community/comments")]
async fn list_comments(
    viewer: OptionalUser,
    query: ValidQuery<CommentsQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<CommentsResponse>, ApiError> {
    let (query, viewer) = (query.into_inner(), viewer.0.as_ref().map(CurrentUser::id));
    let (setup_id, limit, offset) = (SetupId(query.setup_id), query.limit, query.offset);
    let threads = db.run(move |conn| comments::list(conn, viewer, setup_id, limit, offset)).await?;
    Ok(web::Json(CommentsResponse {
        pagination: Pagination::of(threads.total, limit, offset, threads.comments.len()),
        comments: threads.comments.into_iter().map(CommentDto::from).collect(),
    }))
}

/// Comments on a setup, or replies to a comment (one level deep). Needs a verified address;
/// at most 5 a minute and 60 a day; words of the configured filter are refused.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = CommentRequest,
    responses(
        (status = 200, description = "Posted", body = CommentedResponse),
        (status = 400, description = "Empty, longer than 1000 characters, or a filtered word", body = ErrorBody),
        NotSignedIn,
        (status = 403, description = "The address is not verified yet", body = ErrorBody),
        (status = 404, description = "No such setup or comment", body = ErrorBody),
        (status = 429, description = "Too many comments this minute or today (see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/_api/community/comment")]
async fn post_comment(
    user: CurrentUser,
    body: ValidJson<CommentRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<CommentedResponse>, ApiError> {
    let (body, now, changes) = (body.into_inner(), clock.now(), changes.get_ref().clone());
    let (author, filter) = (user.account, config.comment_filter.clone());
    let comment_id = db
        .run(move |conn| {
            let written = Written {
                setup_id: SetupId(body.setup_id),
                parent_id: body.parent_id.map(CommentId),
                body: &body.body,
            };
            comments::comment(conn, &author, written, now, filter.as_ref(), &changes)
        })
        .await?;
    Ok(web::Json(CommentedResponse { success: true, comment_id: comment_id.0 }))
}

/// The author edits their comment within an hour of writing it; it is marked edited. Not
/// under a setup the author may no longer see (hidden for review, or reported by them).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = CommentEditRequest,
    responses(
        (status = 200, description = "Saved", body = SuccessResponse),
        (status = 400, description = "Empty, longer than 1000 characters, or a filtered word", body = ErrorBody),
        NotSignedIn,
        (status = 403, description = "Not the author, or more than an hour after writing", body = ErrorBody),
        (status = 404, description = "No such comment (\"Comment not found.\"), or one under a setup the caller cannot see (\"Setup not found.\")", body = ErrorBody),
    )
)]
#[post("/_api/community/comment/edit")]
async fn edit_comment(
    user: CurrentUser,
    body: ValidJson<CommentEditRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
    config: web::Data<Config>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let (body, now, user_id, filter) =
        (body.into_inner(), clock.now(), user.id(), config.comment_filter.clone());
    let comment_id = CommentId(body.comment_id);
    db.run(move |conn| comments::edit(conn, user_id, comment_id, &body.body, now, filter.as_ref())).await?;
    Ok(web::Json(SuccessResponse { success: true }))
}

/// Deletes a comment: its author, the setup's owner or an admin. One with replies stays
/// as "[deleted]".
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = CommentDeleteRequest,
    responses(
        (status = 200, description = "Deleted", body = SuccessResponse),
        NotSignedIn,
        (status = 403, description = "Neither the author, the setup's owner nor an admin", body = ErrorBody),
        (status = 404, description = "No such comment", body = ErrorBody),
    )
)]
#[post("/_api/community/comment/delete")]
async fn delete_comment(
    user: CurrentUser,
    body: ValidJson<CommentDeleteRequest>,
    db: web::Data<Db>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let (user_id, is_admin, comment_id) = (user.id(), user.account.is_admin(), CommentId(body.comment_id));
    let changes = changes.get_ref().clone();
    db.run(move |conn| comments::delete(conn, user_id, is_admin, comment_id, &changes)).await?;
    Ok(web::Json(SuccessResponse { success: true }))
}

/// Reports a comment to the admins (anonymously to its author), with the same reasons and
/// daily limits as a setup's report; a repeat of the caller's report counts nothing.
/// Needs a verified address.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = CommentReportRequest,
    responses(
        (status = 200, description = "Reported", body = ReportResponse),
        InvalidInput,
        NotSignedIn,
        (status = 403, description = "The address is not verified yet (\"Please verify your email address before reporting.\"), or the caller's own comment", body = ErrorBody),
        (status = 404, description = "No such comment, or one under a setup the caller cannot see", body = ErrorBody),
        (status = 429, description = "Today's reports are used up (the caller's or the network's; see `Retry-After`)", body = ErrorBody),
    )
)]
#[post("/_api/community/comment/report")]
async fn report_comment(
    req: HttpRequest,
    user: CurrentUser,
    body: ValidJson<CommentReportRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<ReportResponse>, ApiError> {
    let body = body.into_inner();
    let reason = report_reason(&body.reason)?;
    let (reporter, comment_id, now) = (user.account, CommentId(body.comment_id), clock.now());
    let (details, ip) = (text(body.additional_details), client_ip(&req));
    let counted = db
        .run(move |conn| {
            let new = NewReport { reason, details: details.as_deref(), ip: ip.as_deref() };
            reports::report_comment(conn, &reporter, comment_id, new, now)
        })
        .await?;
    Ok(web::Json(ReportResponse { success: true, counted }))
}

/// The member's notifications, newest first, with how many are unread (the bell).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    params(NotificationsQuery),
    responses((status = 200, description = "A page of notifications and the unread count", body = NotificationsResponse), NotSignedIn)
)]
#[get("/_api/notifications")]
async fn list_notifications(
    user: CurrentUser,
    query: ValidQuery<NotificationsQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<NotificationsResponse>, ApiError> {
    let (user_id, limit, offset) = (user.id(), query.limit, query.offset);
    let inbox = db.run(move |conn| notifications::inbox(conn, user_id, limit, offset)).await?;
    Ok(web::Json(NotificationsResponse {
        pagination: Pagination::of(inbox.total, limit, offset, inbox.notifications.len()),
        notifications: inbox.notifications.into_iter().map(NotificationDto::from).collect(),
        unread: inbox.unread,
    }))
}

/// How many of the member's notifications are unread (the header's bell asks every minute).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    responses((status = 200, description = "The unread count", body = UnreadResponse), NotSignedIn)
)]
#[get("/_api/notifications/unread")]
async fn unread_notifications(
    user: CurrentUser,
    db: web::Data<Db>,
) -> Result<web::Json<UnreadResponse>, ApiError> {
    let user_id = user.id();
    let unread = db.run(move |conn| notifications::unread(conn, user_id)).await?;
    Ok(web::Json(UnreadResponse { unread }))
}

/// Marks the member's notifications read: some (`ids`) or `all`.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = ReadRequest,
    responses(
        (status = 200, description = "Marked", body = ReadResponse),
        (status = 400, description = "Neither ids nor all", body = ErrorBody),
        NotSignedIn,
    )
)]
#[post("/_api/notifications/read")]
async fn read_notifications(
    user: CurrentUser,
    body: ValidJson<ReadRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<ReadResponse>, ApiError> {
    let body = body.into_inner();
    let read = match body.ids {
        Some(ids) if body.all != Some(true) => Read::These(ids.into_iter().map(NotificationId).collect()),
        _ => Read::All,
    };
    let (user_id, now) = (user.id(), clock.now());
    let marked = db.run(move |conn| notifications::mark_read(conn, user_id, &read, now)).await?;
    Ok(web::Json(ReadResponse { success: true, marked }))
}

/// The member's e-mail settings for notifications (the daily digest).
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    responses((status = 200, description = "The settings", body = NotificationSettingsDto), NotSignedIn)
)]
#[get("/_api/notifications/settings")]
async fn notification_settings(
    user: CurrentUser,
    db: web::Data<Db>,
) -> Result<web::Json<NotificationSettingsDto>, ApiError> {
    let (user_id, email_verified) = (user.id(), user.account.email_verified);
    let email_digest = db.run(move |conn| digest::subscribed(conn, user_id)).await?;
    Ok(web::Json(NotificationSettingsDto { email_digest, email_verified }))
}

/// Turns the daily digest on (a verified address is needed) or off.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = NotificationSettingsRequest,
    responses(
        (status = 200, description = "The settings now", body = NotificationSettingsDto),
        InvalidInput,
        NotSignedIn,
        (status = 403, description = "\"Please verify your email address to get the daily digest.\"", body = ErrorBody),
    )
)]
#[post("/_api/notifications/settings")]
async fn change_notification_settings(
    user: CurrentUser,
    body: ValidJson<NotificationSettingsRequest>,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<web::Json<NotificationSettingsDto>, ApiError> {
    let (on, now, email_verified) = (body.email_digest, clock.now(), user.account.email_verified);
    let account = user.account;
    db.run(move |conn| digest::set(conn, &account, on, now)).await?;
    Ok(web::Json(NotificationSettingsDto { email_digest: on, email_verified }))
}

/// The digest's one-click unsubscribe: the link's page posts here, and so do mail clients
/// (RFC 8058 `List-Unsubscribe-Post`, whatever the body). No session needed: the token is it.
#[utoipa::path(
    tag = "community",
    params(UnsubscribeQuery),
    responses(
        (status = 200, description = "Unsubscribed", body = SuccessResponse),
        InvalidInput,
        (status = 404, description = "\"This unsubscribe link is no longer valid. Sign in to change your e-mail settings.\"", body = ErrorBody),
    )
)]
#[post("/_api/notifications/unsubscribe")]
async fn unsubscribe_digest(
    query: ValidQuery<UnsubscribeQuery>,
    db: web::Data<Db>,
) -> Result<web::Json<SuccessResponse>, ApiError> {
    let token = query.into_inner().token;
    db.run(move |conn| digest::unsubscribe(conn, &token)).await?;
    Ok(web::Json(SuccessResponse { success: true }))
}

/// One setup, as the feed shows it, for its own page (`/community/setup/{id}`).
#[utoipa::path(
    tag = "community",
    params(("id" = i64, Path, description = "The setup", minimum = 1)),
    responses(
        (status = 200, description = "The setup", body = CommunitySetupDto),
        (status = 404, description = "No such setup, or not one the viewer may see", body = ErrorBody),
    )
)]
#[get("/_api/community/setups/{id}")]
async fn one_setup(
    viewer: OptionalUser,
    id: web::Path<i64>,
    db: web::Data<Db>,
) -> Result<web::Json<CommunitySetupDto>, ApiError> {
    let (viewer, setup_id) = (viewer.0.as_ref().map(CurrentUser::id), SetupId(id.into_inner()));
    let setup = db.run(move |conn| feed::setup(conn, viewer, setup_id)).await?;
    setup.map(|s| web::Json(s.into())).ok_or_else(|| ApiError::not_found("Setup not found."))
}

/// Replaces the whole gear list of one of the caller's setups (at most 20 items; an empty
/// list removes it) and answers it as stored.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    request_body = GearRequest,
    responses(
        (status = 200, description = "The list as stored", body = OwnGearResponse),
        InvalidInput,
        NotSignedIn,
        (status = 403, description = "\"Only the owner can change this setup.\"", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
    )
)]
#[post("/_api/community/gear")]
async fn set_gear(
    user: CurrentUser,
    body: ValidJson<GearRequest>,
    db: web::Data<Db>,
    changes: web::Data<FeedChanges>,
) -> Result<web::Json<OwnGearResponse>, ApiError> {
    let (user_id, body, changes) = (user.id(), body.into_inner(), changes.get_ref().clone());
    let saved = db
        .run(move |conn| {
            let items: Vec<NewGear<'_>> = body
                .items
                .iter()
                .map(|i| NewGear { name: &i.name, category: i.category, url: i.url.as_deref() })
                .collect();
            gear::replace(conn, user_id, SetupId(body.setup_id), &items, &changes)
        })
        .await?;
    Ok(web::Json(OwnGearResponse { items: saved.into_iter().map(OwnGearItemDto::from).collect() }))
}

/// The gear of one of the caller's setups as its owner sees it: the links they gave and
/// people's clicks on each.
#[utoipa::path(
    tag = "community",
    security(("session" = [])),
    params(("setupId" = i64, Path, description = "The setup", minimum = 1)),
    responses(
        (status = 200, description = "The list", body = OwnGearResponse),
        NotSignedIn,
        (status = 403, description = "\"Only the owner can change this setup.\"", body = ErrorBody),
        (status = 404, description = "No such setup", body = ErrorBody),
    )
)]
#[get("/_api/community/gear/{setupId}")]
async fn own_gear(
    user: CurrentUser,
    setup_id: web::Path<i64>,
    db: web::Data<Db>,
) -> Result<web::Json<OwnGearResponse>, ApiError> {
    let (user_id, setup_id) = (user.id(), SetupId(setup_id.into_inner()));
    let items = db.run(move |conn| gear::own(conn, user_id, setup_id)).await?;
    Ok(web::Json(OwnGearResponse { items: items.into_iter().map(OwnGearItemDto::from).collect() }))
}

/// A visitor's click on a piece of gear: counted (bots are recorded and never counted, the
/// post's owner is not recorded, as product clicks), then sent to the URL the item holds or
/// to the affiliate link of the catalogue product its name matches. Never anywhere else: an
/// unknown id, an item of a post the visitor may not see and an item with neither are 404.
#[get("/go/gear/{id}")]
async fn follow_gear(
    req: HttpRequest,
    id: web::Path<String>,
    viewer: OptionalUser,
    db: web::Data<Db>,
    clock: web::Data<SharedClock>,
) -> Result<HttpResponse, ApiError> {
    let gear_id = id.parse::<i64>().ok().filter(|id| *id > 0).map(GearId);
    let Some(gear_id) = gear_id else { return Err(CommunityError::GearNotFound.into()) };
    let agent = req.headers().get(actix_web::http::header::USER_AGENT).and_then(|v| v.to_str().ok());
    let follower = Follower {
        viewer: viewer.0.as_ref().map(CurrentUser::id),
        is_bot: setupiq_core::user_agent::is_bot(agent),
    };
    let now = clock.now();
    let url = db.run(move |conn| gear::follow(conn, follower, gear_id, now)).await?;
    Ok(HttpResponse::Found()
        .insert_header((actix_web::http::header::LOCATION, url))
        .insert_header(actix_web::http::header::CacheControl(vec![
            actix_web::http::header::CacheDirective::NoStore,
        ]))
        .finish())
}
