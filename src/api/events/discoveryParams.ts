import type { CustomHelpers } from 'joi';
import { canonicalTimeZone } from '../../domain/dates';
import { Joi } from '../../http/params';
import { FACET_SIZE, FACETS, HISTOGRAM_INTERVALS, MAX_GEO_GRID_ZOOM } from '../../search/eventAggregations';

/** `top,left,bottom,right`: latitudes from -90 to 90 (top not below bottom), longitudes from -180 to 180. */
function checkBounds(value: number[], helpers: CustomHelpers) {
  const [top, left, bottom, right] = value as [number, number, number, number];
  const latitude = (n: number) => n >= -90 && n <= 90;
  const longitude = (n: number) => n >= -180 && n <= 180;
  if (![top, bottom].every(latitude) || ![left, right].every(longitude)) return helpers.error('bounds.range');
  if (top < bottom) return helpers.error('bounds.order');
  return value;
}

/**
 * The discovery parameters of `GET /events` (EXTENSIONS part 14): facets, the calendar histogram,
 * map tiles and the "search this area" box.
 */
export function discoveryParams() {
  return {
    geoloc_bounds: Joi.list()
      .items(Joi.number())
      .length(4)
      .custom(checkBounds)
      .messages({
        'bounds.range':
          '{{#label}} must be top,left,bottom,right with latitudes from -90 to 90 and longitudes from -180 to 180',
        'bounds.order': '{{#label}} must be top,left,bottom,right with top not below bottom',
        'array.length': '{{#label}} must be four numbers: top,left,bottom,right',
      })
      .example('49.0,2.2,48.7,2.5')
      .description(
        'Only events whose venue lies in this box: top,left,bottom,right (latitudes, longitudes); a left edge east of the right one crosses the antimeridian (-10,170,-20,-178 spans the 12° from 170°E to 178°W)',
      ),
    facets: Joi.list()
      .items(
        Joi.string()
          .trim()
          .lowercase()
          .valid(...FACETS),
      )
      .max(FACETS.length)
      .unique()
      .example('categories,venue,featured')
      .description(
        `Adds \`facets\`: per name, up to ${FACET_SIZE} {id, slug, name, count} (featured, ticketed: {value, count}), by count then name, over the matches with every filter applied but the facet's own`,
      ),
    histogram: Joi.string()
      .trim()
      .lowercase()
      .valid(...HISTOGRAM_INTERVALS)
      .example('day')
      .description(
        "Adds `histogram`: [{start, count}], the non-empty days, weeks (from Monday) or months of the matches' start times in `tz`; start is the local date and time the period begins (YYYY-MM-DD HH:MM:SS)",
      ),
    tz: Joi.string()
      .trim()
      .max(64)
      .custom((value: string, helpers) => canonicalTimeZone(value) ?? helpers.error('any.invalid'))
      .messages({ 'any.invalid': '{{#label}} must be an IANA time zone such as Europe/Paris' })
      .example('Europe/Paris')
      .description('IANA time zone of the histogram buckets (default: the site time zone)'),
    geo_grid: Joi.number()
      .integer()
      .min(0)
      .max(MAX_GEO_GRID_ZOOM)
      .example(12)
      .description(
        'Adds `geo_grid`: [{tile: "Z/x/y", lat, lng, count}], the matches per map tile at this zoom level with the centroid of their venues',
      ),
  };
}
