# The bot in a container: `docker compose up` runs it with PostgreSQL (compose.yaml), or alone on
# SQLite in the /app/data volume. docs/deployment.md says more. CI lints this file (hadolint) and
# runs its pip/python steps and its CMD in a fresh virtual environment (.ci/dockerfile_smoke.py).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HEALTH_PORT=8080 \
    HEALTH_HOST=0.0.0.0

RUN groupadd --gid 10001 ttr && useradd --create-home --uid 10001 --gid ttr --shell /usr/sbin/nologin ttr

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY engine ./engine
COPY texts ./texts
COPY rendering ./rendering
COPY storage ./storage
COPY bot ./bot
COPY ai ./ai
COPY cli ./cli
COPY i18n ./i18n
RUN pip install --no-cache-dir .

# /healthz and /metrics on every interface of the container, so a published port reaches them
# (compose.yaml publishes it on the host's 127.0.0.1; `docker run` publishes nothing without -p).
EXPOSE 8080

# Games (SQLite by default) and the command-sync markers live here: keep it on a volume.
RUN mkdir -p /app/data && chown 10001:10001 /app/data
VOLUME ["/app/data"]
USER 10001:10001

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
