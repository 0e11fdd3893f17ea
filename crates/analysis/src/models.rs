//! Rows of the analyses and anonymous-trial tables.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use setupiq_core::{AnalysisId, UserId};
use setupiq_db::schema::{analyses, analysis_holds, analysis_trials, analysis_visitor_results};

setupiq_db::text_enum! {
    /// What was analysed, as stored (`analyses.input_type`) and sent.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum InputType {
        Image = "image",
        Text = "text",
    }
}

setupiq_db::text_enum! {
    /// Where a saved analysis stands (`analyses.status`). Only delivered results are saved
    /// today; the column leaves room for analyses that finish later.
    #[derive(Serialize, Deserialize, utoipa::ToSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum AnalysisStatus {
        Completed = "completed",
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = analyses)]
pub(crate) struct AnalysisRow {
    pub id: AnalysisId,
    pub user_id: UserId,
    pub input_type: InputType,
    pub input_text: Option<String>,
    pub image_key: Option<String>,
    pub thumbnail_key: Option<String>,
    /// The score, the analyzer and everything else delivered live in here.
    pub result_json: String,
    pub status: AnalysisStatus,
    pub created_at: NaiveDateTime,
    /// Set while the owner shares it at `/share/{token}`.
    pub share_token: Option<String>,
    /// The analysis this one re-rates, while it exists.
    pub previous_analysis_id: Option<AnalysisId>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = analyses)]
pub(crate) struct AnalysisInsertForm<'a> {
    pub user_id: UserId,
    pub input_type: InputType,
    pub input_text: Option<&'a str>,
    pub image_key: Option<&'a str>,
    pub thumbnail_key: Option<&'a str>,
    pub overall_tenths: i32,
    pub analyzer: &'a str,
    pub result_json: &'a str,
    pub status: AnalysisStatus,
    pub created_at: NaiveDateTime,
    pub previous_analysis_id: Option<AnalysisId>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = analysis_trials)]
pub(crate) struct TrialInsertForm<'a> {
    pub visitor_hash: &'a str,
    pub ip: &'a str,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = analysis_holds)]
pub(crate) struct HoldInsertForm<'a> {
    pub owner: &'a str,
    pub token: &'a str,
    pub expires_at: NaiveDateTime,
}

/// A visitor's free result, kept for their browser until claimed or expired.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = analysis_visitor_results)]
pub(crate) struct VisitorResultRow {
    pub visitor_hash: String,
    pub input_type: InputType,
    pub input_text: Option<String>,
    pub image_key: Option<String>,
    pub thumbnail_key: Option<String>,
    pub result_json: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}
