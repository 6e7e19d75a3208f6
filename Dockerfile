# Sudoku Arena in a container: the compiled build (setup.py compiles the hot modules with
# mypyc when a C compiler is there, as in the build stage), run by a user without
# privileges, with a health check on /healthz. docs/deploy.md explains it and compose.yaml.

FROM python:3.11-slim AS build
# A C compiler for mypyc; only in this stage, the image that runs has none.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY src ./src
# The project's wheel (compiled) and the wheels of everything it needs.
RUN pip wheel --no-cache-dir --wheel-dir /wheels . \
    && python -c "import sys, zipfile, glob; w = glob.glob('/wheels/sudoku_arena-*.whl')[0]; \
sys.exit(0 if any(n.endswith('.so') for n in zipfile.ZipFile(w).namelist()) else 'not compiled')"

FROM python:3.11-slim
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels sudoku-arena \
    && rm -rf /wheels \
    && useradd --create-home --uid 10001 arena \
    && mkdir -p /data \
    && chown arena /data
USER arena
WORKDIR /home/arena
ENV PYTHONUNBUFFERED=1
EXPOSE 8000
# Alive, not ready: a database outage must not get the process restarted (/readyz is
# the proxy's to poll). The slim image has no curl; Python asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# SIGTERM drains: new players go elsewhere, moves in flight are acknowledged, sockets
# close with 1012 so pages reconnect to another process.
STOPSIGNAL SIGTERM
ENTRYPOINT ["sudoku-arena"]
# Alone, on a SQLite file in the /data volume; compose.yaml runs a fleet instead.
CMD ["serve", "--host", "0.0.0.0", "--port", "8000", "--log-format", "json", \
     "--database-url", "sqlite:////data/sudoku-arena.sqlite3"]
