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
CMD ["burrow", "serve", "--web-only", "--processes", "2", "--host", "0.0.0.0", "--port", "8000"]
