#!/usr/bin/env python3
"""Draws device/plymouth/splash.png, the boot screen's picture: a knight, "ChessPI" and
"starting…" in both languages, in the app's own colours (ui/theme.slint) and font (DejaVu
Sans, as in ui/fonts). Run it after changing the design; the PNG is committed. Needs Pillow."""

import os
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = "/usr/share/fonts/truetype/dejavu"
TEXT, DIM, LIGHT = (242, 242, 242, 255), (168, 176, 188, 255), (240, 217, 181, 255)

image = Image.new("RGBA", (520, 300), (0, 0, 0, 0))
draw = ImageDraw.Draw(image)
knight = ImageFont.truetype(os.path.join(FONTS, "DejaVuSans.ttf"), 120)
title = ImageFont.truetype(os.path.join(FONTS, "DejaVuSans-Bold.ttf"), 64)
small = ImageFont.truetype(os.path.join(FONTS, "DejaVuSans.ttf"), 26)
for text, font, colour, y in (("\u265e", knight, LIGHT, 0), ("ChessPI", title, TEXT, 150),
                              ("starting…   startet…", small, DIM, 240)):
    width = draw.textlength(text, font=font)
    draw.text(((image.width - width) / 2, y), text, font=font, fill=colour)
image.save(os.path.join(HERE, "splash.png"), optimize=True)
