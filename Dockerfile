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
USER burrow
EXPOSE 8000
CMD ["gunicorn", "--worker-class", "gthread", "--workers", "2", "--threads", "16", "--bind", "0.0.0.0:8000", "burrow.wsgi:app"]
