FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY burrow burrow
COPY domain domain
COPY services services
COPY workers workers
COPY web web
RUN pip install --no-cache-dir .
RUN useradd --create-home burrow
# Murus hard's searches are compiled by numba (domain/ai/murus_core.py, the basic game; murus_advanced_core.py, the
# advanced one; importing domain.ai.murus warms both up): compiled once here, into a cache the service's user may
# write (numba only uses a cache folder it can write; it compiles again, there, on a CPU of another model), so no
# container spends its first seconds compiling.
ENV NUMBA_CACHE_DIR=/home/burrow/numba-cache
RUN python -c "import domain.ai.murus" && chown -R burrow /home/burrow/numba-cache
USER burrow
EXPOSE 8000
CMD ["burrow", "serve", "--web-only", "--processes", "2", "--host", "0.0.0.0", "--port", "8000"]
