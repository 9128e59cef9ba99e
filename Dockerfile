FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# The web widget's browser code, bundled in memory when the API starts.
COPY web ./web
ENV NODE_ENV=production
EXPOSE 3000
CMD ["npm", "run", "start:api"]
