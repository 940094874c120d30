-- Sections for every paper (backend/outline): the PDF outline when its
-- titles are printed on their pages, else the headings detected on the
-- pages. start is where a section begins: the rune offset of its title in
-- its page's text (pages.text), so that a section read returns its text
-- to the next section's start and a search hit knows its section. source
-- says where the paper's sections came from: 'outline' or 'headings'.
-- The extractor version rises with this migration (pdf.ExtractorVersion
-- 4), so every paper is read again and its sections written anew.
ALTER TABLE sections ADD COLUMN start INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sections ADD COLUMN source TEXT NOT NULL DEFAULT 'outline';
