import { MongoClient } from 'mongodb';
async function main() {
  const c = new MongoClient('mongodb://127.0.0.1:27050/?replicaSet=rs0', {
    serverMonitoringMode: 'poll',
    socketTimeoutMS: 900000,
  });
  await c.connect();
  const ev = c.db('calendar_bmwpoy7fh4bdc').collection('events');
  const t = Date.now();
  console.log('bench docs', await ev.countDocuments({ lang: 'bench' }), Date.now() - t);
  const r = await ev.deleteMany({ lang: 'bench' });
  console.log('deleted', r.deletedCount, Date.now() - t);
  console.log('events probe docs', await ev.countDocuments({ title: /^Bench probe/ }));
  await c.close();
}
main();
