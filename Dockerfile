# The API and the sync worker share this image; docker-compose.yml picks the command.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dev dependencies (TypeScript, type packages) are needed to compile; this stage is thrown away.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY config ./config
COPY src ./src
COPY scripts ./scripts
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The en/fr/de prose of the /doc document, read at start (src/api/namespace/guideFiles.ts).
COPY docs/guide ./docs/guide
USER node
EXPOSE 8080
CMD ["node", "dist/src/app/main.js"]
