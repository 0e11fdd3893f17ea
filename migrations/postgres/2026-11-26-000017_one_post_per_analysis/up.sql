-- An analysis is published at most once: publishing looks its post up by analysis.
CREATE INDEX community_setups_analysis_idx ON community_setups (analysis_id);
