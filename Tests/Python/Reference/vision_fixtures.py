"""Builds test scenes whose truth is known by construction and prints their manifest as JSON.

Usage: vision_fixtures.py KIND OUTPUT_DIR MEDIA_DIR
  rectangles: documents, cards and a screen drawn in perspective onto real photos, with their corners;
  barcodes:   every format zxing-cpp reads, written by zxing-cpp's own writer with known content, then
              rotated, scaled, blurred and pasted onto real photos, with their corners;
  text:       known words rendered with Pillow's built-in font, plain, on a photo, rotated and small,
              with every word's box.
Scenes are written as PNG (or JPEG where a camera's compression is part of the test) into OUTPUT_DIR.
Everything is seeded: the same call writes the same scenes.
"""

import json
import pathlib
import sys

import cv2
import numpy as np
import zxingcpp
from PIL import Image, ImageDraw, ImageFont

RNG = np.random.default_rng(20240607)


def photo(media, name, size=None):
    image = cv2.imread(str(media / name), cv2.IMREAD_COLOR)
    if size is not None:
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if size[0] < image.shape[1] else cv2.INTER_CUBIC)
    return image


def supersampling(k):
    """Maps pixel coordinates onto those of the same image enlarged k times (pixel centres at whole numbers)."""
    return np.array([[k, 0, 0.5 * k - 0.5], [0, k, 0.5 * k - 0.5], [0, 0, 1.0]])


def paste(background, texture, corners, blur=0.0):
    """Draws `texture` so that its outer edges meet `corners` (TL, TR, BR, BL, pixel centres at whole numbers)."""
    h, w = texture.shape[:2]
    source = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    homography = cv2.getPerspectiveTransform(source, np.float32(corners))
    size = (background.shape[1], background.shape[0])
    warped = cv2.warpPerspective(texture, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Coverage of each output pixel, supersampled so that the edges are anti-aliased like a camera's.
    k = 4 if size[0] * size[1] < 2_000_000 else 2
    big = cv2.warpPerspective(np.full((h * k, w * k), 255, np.uint8),
                              supersampling(k) @ homography @ np.linalg.inv(supersampling(k)),
                              (size[0] * k, size[1] * k), flags=cv2.INTER_NEAREST)
    mask = cv2.resize(big, size, interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    if texture.ndim == 2:
        warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
    elif texture.shape[2] == 4:
        mask = mask * warped[..., 3:].astype(np.float32) / 255
        warped = warped[..., :3]
    result = background.astype(np.float32) * (1 - mask) + warped.astype(np.float32) * mask
    if blur > 0:
        result = cv2.GaussianBlur(result, (0, 0), blur)
    return np.clip(result, 0, 255).astype(np.uint8)


def lighting(image, low, high, angle):
    """Multiplies by a linear ramp from `low` to `high` across the image in direction `angle` (degrees)."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    t = xs * direction[0] + ys * direction[1]
    t = (t - t.min()) / (t.max() - t.min())
    gain = low + (high - low) * t
    return np.clip(image.astype(np.float32) * gain[..., None], 0, 255).astype(np.uint8)


def noisy(image, sigma):
    return np.clip(image.astype(np.float32) + RNG.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def write(out, name, image, quality=None):
    path = out / name
    if quality is None:
        cv2.imwrite(str(path), image)
    else:
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return str(path)


def card(width, height, color, radius):
    """A plain card with a printed band and rounded corners (transparent outside the rounding)."""
    texture = np.full((height, width, 3), color, np.uint8)
    cv2.rectangle(texture, (0, int(height * 0.62)), (width, int(height * 0.8)), (40, 90, 200), -1)
    cv2.putText(texture, "SWIFT 1234", (int(width * 0.08), int(height * 0.4)), cv2.FONT_HERSHEY_SIMPLEX,
                width / 420, (60, 60, 60), max(1, width // 200), cv2.LINE_AA)
    if radius > 0:
        mask = np.zeros((height, width), np.uint8)
        cv2.rectangle(mask, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
        cv2.rectangle(mask, (0, radius), (width - 1, height - 1 - radius), 255, -1)
        for x, y in [(radius, radius), (width - 1 - radius, radius), (radius, height - 1 - radius),
                     (width - 1 - radius, height - 1 - radius)]:
            cv2.circle(mask, (x, y), radius, 255, -1, cv2.LINE_AA)
        return np.dstack([texture, mask])
    return texture


def document(media, width):
    """A printed page: scikit-image's scanned text, its uneven light flattened, on white paper with margins."""
    scan = cv2.cvtColor(photo(media, "page.png"), cv2.COLOR_BGR2GRAY).astype(np.float32)
    background = cv2.GaussianBlur(cv2.dilate(scan, np.ones((15, 15), np.uint8)), (0, 0), 8)
    flat = np.clip(scan / background * 245, 0, 255).astype(np.uint8)
    margin = flat.shape[1] // 8
    sheet = cv2.copyMakeBorder(flat, margin, 3 * margin, margin, margin, cv2.BORDER_CONSTANT, value=245)
    height = round(sheet.shape[0] * width / sheet.shape[1])
    return cv2.cvtColor(cv2.resize(sheet, (width, height), interpolation=cv2.INTER_AREA), cv2.COLOR_GRAY2BGR)


def app_window(width, height):
    """What a screen shows: a title bar, lines of text and a button on a light window."""
    window = np.full((height, width, 3), 248, np.uint8)
    cv2.rectangle(window, (0, 0), (width, height // 8), (160, 90, 30), -1)
    for row in range(5):
        y = height // 4 + row * height // 10
        cv2.putText(window, "Lorem ipsum dolor sit amet"[: 26 - 3 * row], (width // 12, y), cv2.FONT_HERSHEY_SIMPLEX,
                    width / 900, (50, 50, 50), 1, cv2.LINE_AA)
    cv2.rectangle(window, (width * 2 // 3, height * 4 // 5), (width * 11 // 12, height * 9 // 10), (60, 160, 60), -1)
    return window


def rectangles(out, media):
    page_big = document(media, 1000)
    scenes = []

    def scene(name, image, shapes, quality=92, **extra):
        scenes.append({"file": write(out, name, image, quality), "rectangles": shapes, **extra})

    # A printed page in perspective on a street scene; the page itself is kept to compare corrections with.
    bus = photo(media, "bus.jpg")
    page_corners = [[140, 300], [640, 340], [610, 650], [180, 700]]
    scene("page-on-bus.jpg", paste(bus, page_big, page_corners, blur=0.6), [page_corners],
          texture=write(out, "page-texture.png", page_big))

    # A bank card with rounded corners on a cluttered field of horses.
    horses = photo(media, "horses.jpg")
    card_corners = [[230, 180], [470, 160], [490, 310], [250, 335]]
    scene("card-on-horses.jpg", paste(horses, card(856, 540, (235, 215, 170), 26), card_corners, blur=0.7),
          [card_corners])

    # A screen seen from the side: a photo in a black bezel, against a dark crowd. The bezel hardly
    # stands out; the display does, and its corners are the truth.
    zidane = photo(media, "zidane.jpg")
    bezel = 24
    screen = cv2.copyMakeBorder(app_window(480, 300), bezel, bezel, bezel, bezel, cv2.BORDER_CONSTANT,
                                value=(20, 20, 20))
    screen_corners = [[760, 120], [1180, 80], [1200, 420], [780, 400]]
    h, w = screen.shape[:2]
    outline = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
    to_scene = cv2.getPerspectiveTransform(outline, np.float32(screen_corners))
    display = outline + np.float32([[bezel, bezel], [-bezel, bezel], [-bezel, -bezel], [bezel, -bezel]])
    display_corners = cv2.perspectiveTransform(display[None], to_scene)[0].tolist()
    scene("screen-on-zidane.jpg", paste(zidane, screen, screen_corners, blur=0.5), [display_corners])

    # A page on a beach under strong, uneven light, with sensor noise.
    kite = photo(media, "kite.jpg")
    dim_corners = [[120, 560], [430, 590], [400, 860], [90, 820]]
    dim = lighting(paste(kite, page_big, dim_corners, blur=0.6), 0.35, 1.15, 10)
    scene("page-uneven-light.jpg", noisy(dim, 3), [dim_corners])

    # Three cards on one photo, for unlimited observations.
    dog = photo(media, "dog.jpg")
    several = [[[40, 40], [240, 50], [235, 175], [35, 165]],
               [[300, 30], [520, 20], [530, 160], [310, 170]],
               [[560, 420], [720, 400], [735, 510], [575, 530]]]
    image = dog
    for corners, color in zip(several, [(240, 240, 240), (200, 230, 250), (230, 210, 200)]):
        image = paste(image, card(640, 400, color, 0), corners)
    scene("cards-on-dog.jpg", cv2.GaussianBlur(image, (0, 0), 0.6), several)

    # The page scene enlarged to 12 megapixels: the same shape, corners scaled.
    big = cv2.resize(bus, (3000, 4000), interpolation=cv2.INTER_CUBIC)
    big_corners = [[x * 3000 / bus.shape[1], y * 4000 / bus.shape[0]] for x, y in page_corners]
    scene("page-12mp.jpg", paste(big, document(media, 1800), big_corners,
                                 blur=1.5), [big_corners], quality=90)
    return scenes


CODES = [
    ("QRCode", zxingcpp.BarcodeFormat.QRCode, "https://swiftvision.example/qr?id=42"),
    ("MicroQRCode", zxingcpp.BarcodeFormat.MicroQRCode, "MICRO42"),
    ("DataMatrix", zxingcpp.BarcodeFormat.DataMatrix, "DataMatrix 2024-06-07"),
    ("Aztec", zxingcpp.BarcodeFormat.Aztec, "Aztec: SwiftVision"),
    ("PDF417", zxingcpp.BarcodeFormat.PDF417, "PDF417 SwiftVision"),
    ("EAN8", zxingcpp.BarcodeFormat.EAN8, "96385074"),
    ("EAN13", zxingcpp.BarcodeFormat.EAN13, "4006381333931"),
    ("UPCA", zxingcpp.BarcodeFormat.UPCA, "036000291452"),
    ("UPCE", zxingcpp.BarcodeFormat.UPCE, "01234565"),
    ("Code39", zxingcpp.BarcodeFormat.Code39, "SWIFT-39"),
    ("Code93", zxingcpp.BarcodeFormat.Code93, "CODE93 TEST"),
    ("Code128", zxingcpp.BarcodeFormat.Code128, "SV-128-2024"),
    ("Codabar", zxingcpp.BarcodeFormat.Codabar, "A40156B"),  # read without its start and stop characters A, B
    ("ITF", zxingcpp.BarcodeFormat.ITF, "00012345678905"),
    ("DataBar", zxingcpp.BarcodeFormat.DataBar, "0950110153001"),  # read as the GTIN-14 with its check digit
    ("DataBarExpanded", zxingcpp.BarcodeFormat.DataBarExpanded, "(01)98898765432106(3202)012345"),
]
MATRIX = {"QRCode", "MicroQRCode", "DataMatrix", "Aztec", "PDF417"}


def gtin14(digits):
    """The 14-digit GTIN of 13 digits: a leading zero and the GS1 mod-10 check digit."""
    body = digits.rjust(13, "0")
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(body))
    return body + str((10 - total % 10) % 10)


def expected(name, text):
    """The text zxing-cpp reports for `text` encoded as `name`."""
    if name == "Codabar":
        return text[1:-1]
    if name == "DataBar":
        return gtin14(text)
    return text


def symbol(fmt, text, module):
    """The code as a gray image with its quiet zone, `module` pixels per module, and the box of the symbol itself."""
    barcode = zxingcpp.create_barcode(text, fmt)
    bare = np.array(zxingcpp.write_barcode_to_image(barcode, scale=module, add_quiet_zones=False))
    quiet = 10 * module
    image = cv2.copyMakeBorder(bare, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
    h, w = bare.shape[:2]
    return image, [quiet, quiet, w, h]


def placed(image, box, center, angle, scale):
    """Corners of the code image and of its symbol once turned by `angle` degrees about `center` and scaled."""
    h, w = image.shape[:2]
    turn = np.radians(angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) * scale

    def where(x, y):
        return (rotation @ np.array([x - w / 2, y - h / 2]) + center).tolist()

    outer = [where(-0.5, -0.5), where(w - 0.5, -0.5), where(w - 0.5, h - 0.5), where(-0.5, h - 0.5)]
    x, y, bw, bh = box
    inner = [where(x - 0.5, y - 0.5), where(x + bw - 0.5, y - 0.5), where(x + bw - 0.5, y + bh - 0.5),
             where(x - 0.5, y + bh - 0.5)]
    return outer, inner


def barcodes(out, media):
    scenes = []

    def scene(name, image, codes, quality=None):
        scenes.append({"file": write(out, name, image, quality), "barcodes": codes})

    backgrounds = ["bus.jpg", "zidane.jpg", "kite.jpg", "horses.jpg", "dog.jpg", "person.jpg", "giraffe.jpg",
                   "eagle.jpg"]
    for index, (name, fmt, text) in enumerate(CODES):
        # Alone on white, as printed.
        image, box = symbol(fmt, text, 3)
        h, w = image.shape[:2]
        clean = np.full((h + 40, w + 40), 255, np.uint8)
        clean[20:20 + h, 20:20 + w] = image
        symbol_corners = [[20 + box[0], 20 + box[1]], [20 + box[0] + box[2] - 1, 20 + box[1]],
                          [20 + box[0] + box[2] - 1, 20 + box[1] + box[3] - 1], [20 + box[0], 20 + box[1] + box[3] - 1]]
        scene(f"clean-{name}.png", clean, [{"format": name, "text": expected(name, text), "symbol": symbol_corners}])

        # On a photo: turned, scaled by a non-integer factor, slightly blurred, JPEG-compressed.
        background = photo(media, backgrounds[index % len(backgrounds)])
        angle = [12, -8, 25, -18, 6, -15, 10, -5][index % 8] if name not in MATRIX else [30, -15, 40, -25, 10][index % 5]
        image, box = symbol(fmt, text, 2)
        bh, bw = background.shape[:2]
        # As large as fits, but no module narrower than 2.4 pixels (3 for matrix codes).
        scale = max(1.5 if name in MATRIX else 1.2, min(1.5, 0.55 * min(bw, bh) / max(image.shape[:2])))
        center = [bw * 0.5, bh * 0.45]
        outer, inner = placed(image, box, center, angle, scale)
        composite = paste(background, image, outer, blur=0.6)
        scene(f"photo-{name}.jpg", composite,
              [{"format": name, "text": expected(name, text), "symbol": inner, "angle": angle}], 90)

    # Several codes side by side on one photo, each at its own small angle.
    background = photo(media, "bus.jpg")
    chosen = [CODES[0], CODES[2], CODES[6], CODES[5], CODES[3], CODES[9]]
    spots = [[200, 180], [600, 170], [200, 470], [600, 460], [200, 800], [600, 820]]
    codes = []
    for (name, fmt, text), spot, angle in zip(chosen, spots, [5, -7, 3, -4, 9, -2]):
        image, box = symbol(fmt, text, 2)
        scale = max(1.5 if name in MATRIX else 0.9, min(1.0, 300 / max(image.shape[:2])))
        outer, inner = placed(image, box, spot, angle, scale)
        background = paste(background, image, outer)
        codes.append({"format": name, "text": text, "symbol": inner})
    scene("several-on-bus.jpg", cv2.GaussianBlur(background, (0, 0), 0.5), codes, 92)

    # A small QR code: 2 pixels per module after scaling, on a busy photo.
    image, box = symbol(zxingcpp.BarcodeFormat.QRCode, "small", 3)
    outer, inner = placed(image, box, [900, 200], 10, 2 / 3)
    scene("small-qr.png", paste(photo(media, "zidane.jpg"), image, outer, blur=0.4),
          [{"format": "QRCode", "text": "small", "symbol": inner}])

    # A Data Matrix symbol at 1.26 pixels per module, which the plain read misses: read at double size.
    image, box = symbol(zxingcpp.BarcodeFormat.DataMatrix, "DataMatrix 2024", 3)
    outer, inner = placed(image, box, [900, 200], 10, 0.42)
    scene("tiny-datamatrix.png", paste(photo(media, "zidane.jpg"), image, outer, blur=0.3),
          [{"format": "DataMatrix", "text": "DataMatrix 2024", "symbol": inner}])

    # Light codes on a dark ground.
    inverted = []
    canvas = photo(media, "dog.jpg")
    for (name, fmt, text), spot in zip([CODES[0], CODES[2]], [[200, 150], [550, 150]]):
        image, box = symbol(fmt, text, 4)
        outer, inner = placed(255 - image, box, spot, 4, 1.0)
        canvas = paste(canvas, 255 - image, outer)
        inverted.append({"format": name, "text": text, "symbol": inner})
    scene("inverted-on-dog.png", canvas, inverted)

    # A linear code tilted far from the rows zxing-cpp scans.
    name, fmt, text = CODES[6]
    image, box = symbol(fmt, text, 3)
    outer, inner = placed(image, box, [640, 360], 40, 0.9)
    scene("tilted-ean13.jpg", paste(photo(media, "zidane.jpg"), image, outer, blur=0.5),
          [{"format": name, "text": text, "symbol": inner, "angle": 40}], 92)

    # Book backs with EAN-13 codes, photographed together: perspective, several slants and sizes, two close.
    canvas, codes = book_backs(photo(media, "kite.jpg", (1600, 1064)))
    scene("books-ean13.jpg", cv2.GaussianBlur(canvas, (0, 0), 0.6), codes, 90)

    # Nothing to read.
    scene("no-barcode.jpg", photo(media, "chelsea.png"), [], 92)
    return scenes


def ean13(rng):
    """Twelve seeded digits and their EAN-13 check digit."""
    digits = "978" + "".join(str(d) for d in rng.integers(0, 10, 9))
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return digits + str((10 - total % 10) % 10)


def book_backs(canvas):
    """Five book backs, each a coloured card with an EAN-13 sticker, drawn in perspective onto `canvas`."""
    rng = np.random.default_rng(13)
    # Centre, width, turn (degrees), module (pixels) and colour of each book; the first two lie side by side.
    books = [((330, 330), 300, 4, 2, (60, 40, 150)), ((680, 350), 300, -6, 2, (150, 90, 30)),
             ((1180, 300), 380, 17, 3, (40, 120, 60)), ((450, 820), 340, -28, 2, (30, 30, 30)),
             ((1150, 800), 420, 9, 2, (170, 170, 60))]
    codes = []
    values = set()
    for (center, width, angle, module, color) in books:
        value = ean13(rng)
        while value in values:
            value = ean13(rng)
        values.add(value)
        sticker, box = symbol(zxingcpp.BarcodeFormat.EAN13, value, module)
        sh, sw = sticker.shape[:2]
        height = int(width * 1.1)
        scale = min(1.0, 0.9 * width / sw)
        sticker = cv2.resize(sticker, (int(sw * scale), int(sh * scale)), interpolation=cv2.INTER_AREA)
        box = [v * scale for v in box]
        book = np.full((height, width, 3), color, np.uint8)
        x0, y0 = (width - sticker.shape[1]) // 2, height - sticker.shape[0] - int(0.08 * height)
        book[y0:y0 + sticker.shape[0], x0:x0 + sticker.shape[1]] = sticker[..., None]
        # Turned about its centre, then seen in perspective: each corner moved a little.
        turn = np.radians(angle)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        outer = [rotation @ np.array([x - width / 2, y - height / 2]) + center + rng.uniform(-0.03, 0.03, 2) * width
                 for x, y in [(-0.5, -0.5), (width - 0.5, -0.5), (width - 0.5, height - 0.5), (-0.5, height - 0.5)]]
        canvas = paste(canvas, book, outer)
        source = np.float32([[-0.5, -0.5], [width - 0.5, -0.5], [width - 0.5, height - 0.5], [-0.5, height - 0.5]])
        homography = cv2.getPerspectiveTransform(source, np.float32(outer))
        x, y, bw, bh = box[0] + x0, box[1] + y0, box[2], box[3]
        inner = cv2.perspectiveTransform(np.float32([[[x - 0.5, y - 0.5], [x + bw - 0.5, y - 0.5],
                                                      [x + bw - 0.5, y + bh - 0.5], [x - 0.5, y + bh - 0.5]]]),
                                         homography)[0]
        codes.append({"format": "EAN13", "text": value, "symbol": inner.tolist(), "angle": angle})
    return canvas, codes


PARAGRAPH = [
    "The quick brown fox jumps over the lazy dog",
    "Pack my box with five dozen liquor jugs",
    "Swift reads every receipt and document page",
    "Sphinx of black quartz judge my vow",
]


def font(size):
    return ImageFont.load_default(size=size)


def render_lines(lines, size, margin, ink=0, paper=255, spacing=1.6):
    """Renders `lines` and returns the gray image and every word with its box [x, y, width, height]."""
    typeface = font(size)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    width = max(probe.textbbox((0, 0), line, font=typeface)[2] for line in lines) + 2 * margin
    height = int(len(lines) * size * spacing) + 2 * margin
    canvas = Image.new("L", (width, height), paper)
    draw = ImageDraw.Draw(canvas)
    words = []
    for row, line in enumerate(lines):
        y = margin + int(row * size * spacing)
        x = margin
        for word in line.split(" "):
            left, top, right, bottom = draw.textbbox((x, y), word, font=typeface)
            draw.text((x, y), word, font=typeface, fill=ink)
            words.append({"text": word, "box": [left, top, right - left, bottom - top]})
            x = draw.textbbox((x, y), word + " ", font=typeface)[2]
    return np.array(canvas), words


def text(out, media):
    scenes = []

    def scene(name, image, words, quality=None, **extra):
        scenes.append({"file": write(out, name, image, quality), "words": words, **extra})

    page, words = render_lines(PARAGRAPH, 34, 40)
    scene("paragraph.png", page, words)

    # The same page turned a quarter clockwise: its words are found once the page is turned back.
    scene("paragraph-rotated.png", cv2.rotate(page, cv2.ROTATE_90_CLOCKWISE), [w["text"] for w in words])

    # Small print: 12-pixel type.
    small, small_words = render_lines(PARAGRAPH, 12, 10)
    scene("small-print.png", small, small_words)

    # A notice on a bus photo, in slight perspective, under uneven light.
    notice, notice_words = render_lines(PARAGRAPH[:2], 30, 24, ink=30, paper=235)
    bus = photo(media, "bus.jpg")
    h, w = notice.shape
    corners = [[60, 520], [60 + w * 0.9, 530], [60 + w * 0.9 + 6, 530 + h * 0.9], [64, 520 + h * 0.9]]
    composite = lighting(paste(bus, notice, corners, blur=0.7), 0.55, 1.1, 0)
    scene("notice-on-bus.jpg", noisy(composite, 2), [w["text"] for w in notice_words], 92)
    return scenes


def main(kind, out, media):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    builders = {"rectangles": rectangles, "barcodes": barcodes, "text": text}
    print(json.dumps(builders[kind](out, pathlib.Path(media))))


if __name__ == "__main__":
    main(*sys.argv[1:4])
