package compactor_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/compactor"
)

// boundSamples are short texts in the scripts and shapes a history
// holds: prose in several scripts, emoji, code and JSON.
var boundSamples = map[string]string{
	"english":  "The quick brown fox jumps over the lazy dog. Compaction starts when the history nears the model's context window, so estimates matter. ",
	"accented": "Ça fait déjà longtemps qu'on n'a pas vu l'été à Zürich; Ærøskøbing, São Paulo, Łódź, naïve café. ",
	"chinese":  "人工智能正在改变我们的生活方式。模型的上下文窗口有限，如果估计的令牌数量偏低，历史记录就会超出窗口，请求会被截断。我们需要一个保守的估计。",
	"rare han": "龘靐齉爩鱻麤龖䨻𪚥𠀾𡈼𤳸",
	"japanese": "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。",
	"korean":   "대한민국은 민주공화국이다. 대한민국의 주권은 국민에게 있고, 모든 권력은 국민으로부터 나온다. 모든 국민은 인간으로서의 존엄과 가치를 가진다.",
	"greek":    "Η γρήγορη καφέ αλεπού πηδάει πάνω από το τεμπέλικο σκυλί. Το μοντέλο έχει περιορισμένο παράθυρο συμφραζομένων και η εκτίμηση πρέπει να είναι συντηρητική. ",
	"russian":  "Съешь же ещё этих мягких французских булок, да выпей чаю. Окно контекста модели ограничено, поэтому оценка должна быть осторожной. ",
	"arabic":   "الثعلب البني السريع يقفز فوق الكلب الكسول. نافذة السياق للنموذج محدودة، لذلك يجب أن يكون التقدير حذرا. ",
	"hebrew":   "השועל החום המהיר קופץ מעל הכלב העצלן. חלון ההקשר של המודל מוגבל ולכן ההערכה צריכה להיות זהירה. ",
	"hindi":    "तेज़ भूरी लोमड़ी आलसी कुत्ते के ऊपर कूदती है। मॉडल की संदर्भ विंडो सीमित है, इसलिए अनुमान सावधान होना चाहिए। ",
	"thai":     "สุนัขจิ้งจอกสีน้ำตาลกระโดดข้ามสุนัขขี้เกียจ หน้าต่างบริบทของแบบจำลองมีจำกัด ดังนั้นการประมาณควรระมัดระวัง ",
	"tamil":    "விரைவான பழுப்பு நரி சோம்பேறி நாயின் மேல் குதிக்கிறது. மாதிரியின் சூழல் சாளரம் குறைவாக உள்ளது. ",
	"armenian": "Արագ շագանակագույն աղվեսը ցատկում է ծույլ շան վրայով։ Մոդելի համատեքստի պատուհանը սահմանափակ է։ ",
	"georgian": "სწრაფი ყავისფერი მელა ხტება ზარმაც ძაღლზე. მოდელის კონტექსტის ფანჯარა შეზღუდულია. ",
	"emoji":    "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛😝😜🤪🤨🧐🤓😎🥸🤩🥳👨‍👩‍👧‍👦🏳️‍🌈👍🏽🇫🇷🇯🇵",
	"chat":     "great job 🎉 see you 👋 thanks 🙏 love it ❤️ fire 🔥 ok 👌 ",
	"math":     "∀x∈ℝ: ∫₀^∞ e^{−x²} dx = √π⁄2 ≈ 0.886; ∑ₙ 1/n² = π²/6 ⇒ ζ(2) ≠ 1 ± ε ",
	"box":      "┌──────┬──────┐\n│ name │ size │\n├──────┼──────┤\n│ a.go │ 12 k │\n└──────┴──────┘\n",
	"code":     "func (t *transition) appendCounted(turn contract.Turn, tokens int) {\n\tif tokens <= 0 {\n\t\ttokens = compactor.Estimate(t.rules.cfg.Model, turn)\n\t}\n}\n",
	"json":     `{"path":"src/main.go","content":"package main\n\nfunc main() {}\n","mode":420,"ok":true}`,
}

// A model no tokenizer is known for is counted by the fallback, which
// must not count fewer tokens than the tokenizers it may stand for: an
// undercount lets history outgrow the context window before compaction
// starts, and a server such as Ollama then cuts the prompt silently.
func TestFallbackEstimateBoundsKnownTokenizers(t *testing.T) {
	for name, text := range boundSamples {
		for _, n := range []int{1, 20} {
			turn := user(strings.Repeat(text, n))
			fallback := compactor.Estimate("llama3.1:8b", turn)
			for _, known := range []string{"gpt-4", "gpt-4o"} {
				if exact := compactor.Estimate(known, turn); fallback < exact {
					t.Errorf("%s x%d: fallback counts %d tokens, %s counts %d", name, n, fallback, known, exact)
				}
			}
		}
	}
}
