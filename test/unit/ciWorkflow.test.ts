import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ELASTICSEARCH_VERSION } from '../../src/dev/elasticsearchDistribution';

// .github/workflows/ci.yml cannot run here (no Docker engine): these checks keep it in line.

const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

interface Job {
  services: Record<string, { image: string; ports: string[] }>;
  env: Record<string, string>;
  steps: { run?: string; uses?: string }[];
}

describe('.github/workflows/ci.yml', () => {
  const job = (parse(read('.github/workflows/ci.yml')) as { jobs: { test: Job } }).jobs.test;
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, { image: string }> };
  const runs = job.steps.flatMap((step) => step.run ?? []);

  it('runs the suite against the servers of docker-compose.yml: MongoDB 7 as replica set rs0, Elasticsearch of the embedded version', () => {
    expect(job.services.elasticsearch?.image).to.equal(compose.services.elasticsearch?.image);
    expect(job.services.elasticsearch?.image).to.match(new RegExp(`:${ELASTICSEARCH_VERSION.replaceAll('.', '\\.')}$`));
    expect(compose.services.mongo?.image).to.equal('mongo:7');
    expect(runs.join('\n')).to.include('docker run -d --name mongo -p 27017:27017 mongo:7 mongod --replSet rs0');
    expect(job.env).to.deep.equal({
      MONGO_URL: 'mongodb://127.0.0.1:27017/?replicaSet=rs0',
      ELASTICSEARCH_URL: 'http://127.0.0.1:9200',
    });
    expect(runs.at(-1)).to.equal('npm test');
  });

  it('says it has not been run here', () => {
    expect(read('.github/workflows/ci.yml')).to.include('NOT RUN in the environment this project is developed in');
  });
});
