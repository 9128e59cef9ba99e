/** file-type is an ES module: loaded once, on the first upload that needs it. */
let fileType: Promise<typeof import("file-type", { with: { "resolution-mode": "import" } })> | undefined;
const loadFileType = () => (fileType ??= import("file-type"));

/** Declared types that name one format under another name, as browsers and SDKs send them. */
const SAME_FORMAT: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/x-png": "image/png",
  "image/x-ms-bmp": "image/bmp",
  "image/heif": "image/heic",
  "image/heic-sequence": "image/heic",
  "image/heif-sequence": "image/heic",
};

const formatOf = (mime: string) => SAME_FORMAT[mime] ?? mime;

/**
 * Whether a file declared as an image holds that image, by its leading bytes (file-type's
 * signatures): a page declared image/png is not one. A declared format without a signature (SVG is
 * text) passes unless the bytes are recognisably something else. Other declared types are not
 * checked here: only images are shown in place.
 */
export async function imageMatchesBytes(path: string, declared: string): Promise<boolean> {
  if (!declared.startsWith("image/")) return true;
  const { fileTypeFromFile, supportedMimeTypes } = await loadFileType();
  const detected = await fileTypeFromFile(path);
  const expected = formatOf(declared);
  if (detected) return formatOf(detected.mime) === expected;
  return !supportedMimeTypes.has(expected as never);
}
