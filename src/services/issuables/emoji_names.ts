// The award emoji names GitLab 10.8 accepts (Gitlab::Emoji.emojis_names: the gemojione index's
// names and their aliases) and its alias map (fixtures/emojis/aliases.json), which normalises a
// name before it is stored ("+1" is stored as "thumbsup"). Data only.

const NAMES =
  '+1 +1_tone1 +1_tone2 +1_tone3 +1_tone4 +1_tone5 -1 -1_tone1 -1_tone2 -1_tone3 -1_tone4 -1_tone5 100 1234 8ball ' +
  'a ab abc abcd ac accept ad admission_tickets ae aerial_tramway af ag ai airplane airplane_arriving ' +
  'airplane_departure airplane_small al alarm_clock alembic alien am ambulance amphora anchor angel angel_tone1 ' +
  'angel_tone2 angel_tone3 angel_tone4 angel_tone5 anger anger_right angry anguished ant ao apple aq aquarius ar ' +
  'archery aries arrow_backward arrow_double_down arrow_double_up arrow_down arrow_down_small arrow_forward ' +
  'arrow_heading_down arrow_heading_up arrow_left arrow_lower_left arrow_lower_right arrow_right arrow_right_hook ' +
  'arrow_up arrow_up_down arrow_up_small arrow_upper_left arrow_upper_right arrows_clockwise ' +
  'arrows_counterclockwise art articulated_lorry as asterisk astonished at athletic_shoe atm atom atom_symbol au ' +
  'avocado aw ax az b ba baby baby_bottle baby_chick baby_symbol baby_tone1 baby_tone2 baby_tone3 baby_tone4 ' +
  'baby_tone5 back back_of_hand back_of_hand_tone1 back_of_hand_tone2 back_of_hand_tone3 back_of_hand_tone4 ' +
  'back_of_hand_tone5 bacon badminton baggage_claim baguette_bread balloon ballot_box ballot_box_with_ballot ' +
  'ballot_box_with_check bamboo banana bangbang bank bar_chart barber baseball basketball basketball_player ' +
  'basketball_player_tone1 basketball_player_tone2 basketball_player_tone3 basketball_player_tone4 ' +
  'basketball_player_tone5 bat bath bath_tone1 bath_tone2 bath_tone3 bath_tone4 bath_tone5 bathtub battery bb bd ' +
  'be beach beach_umbrella beach_with_umbrella bear bed bee beer beers beetle beginner bell bellhop bellhop_bell ' +
  'bento bf bg bh bi bicyclist bicyclist_tone1 bicyclist_tone2 bicyclist_tone3 bicyclist_tone4 bicyclist_tone5 ' +
  'bike bikini biohazard biohazard_sign bird birthday bj bl black_circle black_heart black_joker ' +
  'black_large_square black_medium_small_square black_medium_square black_nib black_small_square ' +
  'black_square_button blossom blowfish blue_book blue_car blue_heart blush bm bn bo boar bomb book bookmark ' +
  'bookmark_tabs books boom boot bottle_with_popping_cork bouquet bow bow_and_arrow bow_tone1 bow_tone2 bow_tone3 ' +
  'bow_tone4 bow_tone5 bowling boxing_glove boxing_gloves boy boy_tone1 boy_tone2 boy_tone3 boy_tone4 boy_tone5 ' +
  'bq br bread bride_with_veil bride_with_veil_tone1 bride_with_veil_tone2 bride_with_veil_tone3 ' +
  'bride_with_veil_tone4 bride_with_veil_tone5 bridge_at_night briefcase broken_heart bs bt bug ' +
  'building_construction bulb bullettrain_front bullettrain_side burrito bus busstop bust_in_silhouette ' +
  'busts_in_silhouette butterfly bv bw by bz ca cactus cake calendar calendar_spiral call_me call_me_hand ' +
  'call_me_hand_tone1 call_me_hand_tone2 call_me_hand_tone3 call_me_hand_tone4 call_me_hand_tone5 call_me_tone1 ' +
  'call_me_tone2 call_me_tone3 call_me_tone4 call_me_tone5 calling camel camera camera_with_flash camping cancer ' +
  'candle candy canoe capital_abcd capricorn card_box card_file_box card_index card_index_dividers carousel_horse ' +
  'carrot cartwheel cartwheel_tone1 cartwheel_tone2 cartwheel_tone3 cartwheel_tone4 cartwheel_tone5 cat cat2 cc ' +
  'cd cf cg ch chains champagne champagne_glass chart chart_with_downwards_trend chart_with_upwards_trend ' +
  'checkered_flag cheese cheese_wedge cherries cherry_blossom chestnut chicken children_crossing chile chipmunk ' +
  'chocolate_bar christmas_tree church ci cinema circus_tent city_dusk city_sunrise city_sunset cityscape ck cl ' +
  'clap clap_tone1 clap_tone2 clap_tone3 clap_tone4 clap_tone5 clapper classical_building clinking_glass ' +
  'clipboard clock clock1 clock10 clock1030 clock11 clock1130 clock12 clock1230 clock130 clock2 clock230 clock3 ' +
  'clock330 clock4 clock430 clock5 clock530 clock6 clock630 clock7 clock730 clock8 clock830 clock9 clock930 ' +
  'closed_book closed_lock_with_key closed_umbrella cloud cloud_lightning cloud_rain cloud_snow cloud_tornado ' +
  'cloud_with_lightning cloud_with_rain cloud_with_snow cloud_with_tornado clown clown_face clubs cm cn co ' +
  'cocktail coffee coffin cold_sweat comet compression computer confetti_ball confounded confused congo ' +
  'congratulations construction construction_site construction_worker construction_worker_tone1 ' +
  'construction_worker_tone2 construction_worker_tone3 construction_worker_tone4 construction_worker_tone5 ' +
  'control_knobs convenience_store cookie cooking cool cop cop_tone1 cop_tone2 cop_tone3 cop_tone4 cop_tone5 ' +
  'copyright corn couch couch_and_lamp couple couple_mm couple_with_heart couple_with_heart_mm ' +
  'couple_with_heart_ww couple_ww couplekiss couplekiss_mm couplekiss_ww cow cow2 cowboy cp cr crab crayon ' +
  'credit_card crescent_moon cricket cricket_bat_ball crocodile croissant cross crossed_flags crossed_swords ' +
  'crown cruise_ship cry crying_cat_face crystal_ball cu cucumber cupid curly_loop currency_exchange curry ' +
  'custard customs cv cw cx cy cyclone cz dagger dagger_knife dancer dancer_tone1 dancer_tone2 dancer_tone3 ' +
  'dancer_tone4 dancer_tone5 dancers dango dark_sunglasses dart dash date de deciduous_tree deer department_store ' +
  'derelict_house_building desert desert_island desktop desktop_computer dg diamond_shape_with_a_dot_inside ' +
  'diamonds disappointed disappointed_relieved dividers dizzy dizzy_face dj dk dm do do_not_litter dog dog2 ' +
  'dollar dolls dolphin door double_vertical_bar doughnut dove dove_of_peace dragon dragon_face dress ' +
  'dromedary_camel drool drooling_face droplet drum drum_with_drumsticks duck dvd dz e-mail ea eagle ear ' +
  'ear_of_rice ear_tone1 ear_tone2 ear_tone3 ear_tone4 ear_tone5 earth_africa earth_americas earth_asia ec ee eg ' +
  'egg eggplant eh eight eight_pointed_black_star eight_spoked_asterisk eject eject_symbol electric_plug elephant ' +
  'email end envelope envelope_with_arrow er es et eu euro european_castle european_post_office evergreen_tree ' +
  'exclamation expecting_woman expecting_woman_tone1 expecting_woman_tone2 expecting_woman_tone3 ' +
  'expecting_woman_tone4 expecting_woman_tone5 expressionless eye eye_in_speech_bubble eyeglasses eyes face_palm ' +
  'face_palm_tone1 face_palm_tone2 face_palm_tone3 face_palm_tone4 face_palm_tone5 face_with_cowboy_hat ' +
  'face_with_head_bandage face_with_rolling_eyes face_with_thermometer facepalm facepalm_tone1 facepalm_tone2 ' +
  'facepalm_tone3 facepalm_tone4 facepalm_tone5 factory fallen_leaf family family_mmb family_mmbb family_mmg ' +
  'family_mmgb family_mmgg family_mwbb family_mwg family_mwgb family_mwgg family_wwb family_wwbb family_wwg ' +
  'family_wwgb family_wwgg fast_forward fax fearful feet fencer fencing ferris_wheel ferry fi field_hockey ' +
  'file_cabinet file_folder film_frames film_projector fingers_crossed fingers_crossed_tone1 ' +
  'fingers_crossed_tone2 fingers_crossed_tone3 fingers_crossed_tone4 fingers_crossed_tone5 fire fire_engine ' +
  'fireworks first_place first_place_medal first_quarter_moon first_quarter_moon_with_face fish fish_cake ' +
  'fishing_pole_and_fish fist fist_tone1 fist_tone2 fist_tone3 fist_tone4 fist_tone5 five fj fk flag_ac flag_ad ' +
  'flag_ae flag_af flag_ag flag_ai flag_al flag_am flag_ao flag_aq flag_ar flag_as flag_at flag_au flag_aw ' +
  'flag_ax flag_az flag_ba flag_bb flag_bd flag_be flag_bf flag_bg flag_bh flag_bi flag_bj flag_bl flag_black ' +
  'flag_bm flag_bn flag_bo flag_bq flag_br flag_bs flag_bt flag_bv flag_bw flag_by flag_bz flag_ca flag_cc ' +
  'flag_cd flag_cf flag_cg flag_ch flag_ci flag_ck flag_cl flag_cm flag_cn flag_co flag_cp flag_cr flag_cu ' +
  'flag_cv flag_cw flag_cx flag_cy flag_cz flag_de flag_dg flag_dj flag_dk flag_dm flag_do flag_dz flag_ea ' +
  'flag_ec flag_ee flag_eg flag_eh flag_er flag_es flag_et flag_eu flag_fi flag_fj flag_fk flag_fm flag_fo ' +
  'flag_fr flag_ga flag_gb flag_gd flag_ge flag_gf flag_gg flag_gh flag_gi flag_gl flag_gm flag_gn flag_gp ' +
  'flag_gq flag_gr flag_gs flag_gt flag_gu flag_gw flag_gy flag_hk flag_hm flag_hn flag_hr flag_ht flag_hu ' +
  'flag_ic flag_id flag_ie flag_il flag_im flag_in flag_io flag_iq flag_ir flag_is flag_it flag_je flag_jm ' +
  'flag_jo flag_jp flag_ke flag_kg flag_kh flag_ki flag_km flag_kn flag_kp flag_kr flag_kw flag_ky flag_kz ' +
  'flag_la flag_lb flag_lc flag_li flag_lk flag_lr flag_ls flag_lt flag_lu flag_lv flag_ly flag_ma flag_mc ' +
  'flag_md flag_me flag_mf flag_mg flag_mh flag_mk flag_ml flag_mm flag_mn flag_mo flag_mp flag_mq flag_mr ' +
  'flag_ms flag_mt flag_mu flag_mv flag_mw flag_mx flag_my flag_mz flag_na flag_nc flag_ne flag_nf flag_ng ' +
  'flag_ni flag_nl flag_no flag_np flag_nr flag_nu flag_nz flag_om flag_pa flag_pe flag_pf flag_pg flag_ph ' +
  'flag_pk flag_pl flag_pm flag_pn flag_pr flag_ps flag_pt flag_pw flag_py flag_qa flag_re flag_ro flag_rs ' +
  'flag_ru flag_rw flag_sa flag_sb flag_sc flag_sd flag_se flag_sg flag_sh flag_si flag_sj flag_sk flag_sl ' +
  'flag_sm flag_sn flag_so flag_sr flag_ss flag_st flag_sv flag_sx flag_sy flag_sz flag_ta flag_tc flag_td ' +
  'flag_tf flag_tg flag_th flag_tj flag_tk flag_tl flag_tm flag_tn flag_to flag_tr flag_tt flag_tv flag_tw ' +
  'flag_tz flag_ua flag_ug flag_um flag_us flag_uy flag_uz flag_va flag_vc flag_ve flag_vg flag_vi flag_vn ' +
  'flag_vu flag_wf flag_white flag_ws flag_xk flag_ye flag_yt flag_za flag_zm flag_zw flags flame flashlight ' +
  'fleur-de-lis floppy_disk flower_playing_cards flushed fm fo fog foggy football footprints fork_and_knife ' +
  'fork_and_knife_with_plate fork_knife_plate fountain four four_leaf_clover fox fox_face fr frame_photo ' +
  'frame_with_picture free french_bread fried_shrimp fries frog frowning frowning2 fuelpump full_moon ' +
  'full_moon_with_face funeral_urn ga game_die gay_pride_flag gb gd ge gear gem gemini gf gg gh ghost gi gift ' +
  'gift_heart girl girl_tone1 girl_tone2 girl_tone3 girl_tone4 girl_tone5 gl glass_of_milk globe_with_meridians ' +
  'gm gn goal goal_net goat golf golfer gorilla gp gq gr grandma grandma_tone1 grandma_tone2 grandma_tone3 ' +
  'grandma_tone4 grandma_tone5 grapes green_apple green_book green_heart green_salad grey_exclamation ' +
  'grey_question grimacing grin grinning gs gt gu guardsman guardsman_tone1 guardsman_tone2 guardsman_tone3 ' +
  'guardsman_tone4 guardsman_tone5 guitar gun gw gy haircut haircut_tone1 haircut_tone2 haircut_tone3 ' +
  'haircut_tone4 haircut_tone5 hamburger hammer hammer_and_pick hammer_and_wrench hammer_pick hamster ' +
  'hand_splayed hand_splayed_tone1 hand_splayed_tone2 hand_splayed_tone3 hand_splayed_tone4 hand_splayed_tone5 ' +
  'hand_with_index_and_middle_finger_crossed hand_with_index_and_middle_fingers_crossed_tone1 ' +
  'hand_with_index_and_middle_fingers_crossed_tone2 hand_with_index_and_middle_fingers_crossed_tone3 ' +
  'hand_with_index_and_middle_fingers_crossed_tone4 hand_with_index_and_middle_fingers_crossed_tone5 handbag ' +
  'handball handball_tone1 handball_tone2 handball_tone3 handball_tone4 handball_tone5 handshake handshake_tone1 ' +
  'handshake_tone2 handshake_tone3 handshake_tone4 handshake_tone5 hankey hash hatched_chick hatching_chick ' +
  'head_bandage headphones hear_no_evil heart heart_decoration heart_exclamation heart_eyes heart_eyes_cat ' +
  'heartbeat heartpulse hearts heavy_check_mark heavy_division_sign heavy_dollar_sign ' +
  'heavy_heart_exclamation_mark_ornament heavy_minus_sign heavy_multiplication_x heavy_plus_sign helicopter ' +
  'helmet_with_cross helmet_with_white_cross herb hibiscus high_brightness high_heel hk hm hn hockey hole homes ' +
  'honey_pot horse horse_racing horse_racing_tone1 horse_racing_tone2 horse_racing_tone3 horse_racing_tone4 ' +
  'horse_racing_tone5 hospital hot_dog hot_pepper hotdog hotel hotsprings hourglass hourglass_flowing_sand house ' +
  'house_abandoned house_buildings house_with_garden hr ht hu hugging hugging_face hushed ic ice_cream ice_skate ' +
  'icecream id ideograph_advantage ie il im imp in inbox_tray incoming_envelope indonesia information_desk_person ' +
  'information_desk_person_tone1 information_desk_person_tone2 information_desk_person_tone3 ' +
  'information_desk_person_tone4 information_desk_person_tone5 information_source innocent interrobang io iphone ' +
  'iq ir is island it izakaya_lantern jack_o_lantern japan japanese_castle japanese_goblin japanese_ogre je jeans ' +
  'jm jo joy joy_cat joystick jp juggler juggler_tone1 juggler_tone2 juggler_tone3 juggler_tone4 juggler_tone5 ' +
  'juggling juggling_tone1 juggling_tone2 juggling_tone3 juggling_tone4 juggling_tone5 kaaba karate_uniform kayak ' +
  'ke key key2 keyboard keycap_asterisk kg kh ki kimono kiss kiss_mm kiss_ww kissing kissing_cat ' +
  'kissing_closed_eyes kissing_heart kissing_smiling_eyes kiwi kiwifruit km kn knife koala koko kp kr kw ky kz la ' +
  'label large_blue_circle large_blue_diamond large_orange_diamond last_quarter_moon last_quarter_moon_with_face ' +
  'latin_cross laughing lb lc leaves ledger left_facing_fist left_facing_fist_tone1 left_facing_fist_tone2 ' +
  'left_facing_fist_tone3 left_facing_fist_tone4 left_facing_fist_tone5 left_fist left_fist_tone1 left_fist_tone2 ' +
  'left_fist_tone3 left_fist_tone4 left_fist_tone5 left_luggage left_right_arrow left_speech_bubble ' +
  'leftwards_arrow_with_hook lemon leo leopard level_slider levitate li liar libra lifter lifter_tone1 ' +
  'lifter_tone2 lifter_tone3 lifter_tone4 lifter_tone5 light_rail link linked_paperclips lion lion_face lips ' +
  'lipstick lizard lk lock lock_with_ink_pen lollipop loop loud_sound loudspeaker love_hotel love_letter ' +
  'low_brightness lower_left_ballpoint_pen lower_left_crayon lower_left_fountain_pen lower_left_paintbrush lr ls ' +
  'lt lu lv ly lying_face m ma mag mag_right mahjong mailbox mailbox_closed mailbox_with_mail ' +
  'mailbox_with_no_mail male_dancer male_dancer_tone1 male_dancer_tone2 male_dancer_tone3 male_dancer_tone4 ' +
  'male_dancer_tone5 man man_dancing man_dancing_tone1 man_dancing_tone2 man_dancing_tone3 man_dancing_tone4 ' +
  'man_dancing_tone5 man_in_business_suit_levitating man_in_tuxedo man_in_tuxedo_tone1 man_in_tuxedo_tone2 ' +
  'man_in_tuxedo_tone3 man_in_tuxedo_tone4 man_in_tuxedo_tone5 man_tone1 man_tone2 man_tone3 man_tone4 man_tone5 ' +
  'man_with_gua_pi_mao man_with_gua_pi_mao_tone1 man_with_gua_pi_mao_tone2 man_with_gua_pi_mao_tone3 ' +
  'man_with_gua_pi_mao_tone4 man_with_gua_pi_mao_tone5 man_with_turban man_with_turban_tone1 ' +
  'man_with_turban_tone2 man_with_turban_tone3 man_with_turban_tone4 man_with_turban_tone5 mans_shoe ' +
  'mantlepiece_clock map maple_leaf martial_arts_uniform mask massage massage_tone1 massage_tone2 massage_tone3 ' +
  'massage_tone4 massage_tone5 mc md me meat_on_bone medal mega melon memo menorah mens metal metal_tone1 ' +
  'metal_tone2 metal_tone3 metal_tone4 metal_tone5 metro mf mg mh microphone microphone2 microscope middle_finger ' +
  'middle_finger_tone1 middle_finger_tone2 middle_finger_tone3 middle_finger_tone4 middle_finger_tone5 ' +
  'military_medal milk milky_way minibus minidisc mk ml mm mn mo mobile_phone_off money_mouth money_mouth_face ' +
  'money_with_wings moneybag monkey monkey_face monorail mortar_board mosque mother_christmas ' +
  'mother_christmas_tone1 mother_christmas_tone2 mother_christmas_tone3 mother_christmas_tone4 ' +
  'mother_christmas_tone5 motor_scooter motorbike motorboat motorcycle motorway mount_fuji mountain ' +
  'mountain_bicyclist mountain_bicyclist_tone1 mountain_bicyclist_tone2 mountain_bicyclist_tone3 ' +
  'mountain_bicyclist_tone4 mountain_bicyclist_tone5 mountain_cableway mountain_railway mountain_snow mouse ' +
  'mouse2 mouse_three_button movie_camera moyai mp mq mr mrs_claus mrs_claus_tone1 mrs_claus_tone2 ' +
  'mrs_claus_tone3 mrs_claus_tone4 mrs_claus_tone5 ms mt mu muscle muscle_tone1 muscle_tone2 muscle_tone3 ' +
  'muscle_tone4 muscle_tone5 mushroom musical_keyboard musical_note musical_score mute mv mw mx my mz na ' +
  'nail_care nail_care_tone1 nail_care_tone2 nail_care_tone3 nail_care_tone4 nail_care_tone5 name_badge ' +
  'national_park nauseated_face nc ne necktie negative_squared_cross_mark nerd nerd_face neutral_face new ' +
  'new_moon new_moon_with_face newspaper newspaper2 next_track nf ng ni nigeria night_with_stars nine nl no ' +
  'no_bell no_bicycles no_entry no_entry_sign no_good no_good_tone1 no_good_tone2 no_good_tone3 no_good_tone4 ' +
  'no_good_tone5 no_mobile_phones no_mouth no_pedestrians no_smoking non-potable_water nose nose_tone1 nose_tone2 ' +
  'nose_tone3 nose_tone4 nose_tone5 notebook notebook_with_decorative_cover notepad_spiral notes np nr nu ' +
  'nut_and_bolt nz o o2 ocean octagonal_sign octopus oden office oil oil_drum ok ok_hand ok_hand_tone1 ' +
  'ok_hand_tone2 ok_hand_tone3 ok_hand_tone4 ok_hand_tone5 ok_woman ok_woman_tone1 ok_woman_tone2 ok_woman_tone3 ' +
  'ok_woman_tone4 ok_woman_tone5 old_key older_man older_man_tone1 older_man_tone2 older_man_tone3 ' +
  'older_man_tone4 older_man_tone5 older_woman older_woman_tone1 older_woman_tone2 older_woman_tone3 ' +
  'older_woman_tone4 older_woman_tone5 om om_symbol on oncoming_automobile oncoming_bus oncoming_police_car ' +
  'oncoming_taxi one open_file_folder open_hands open_hands_tone1 open_hands_tone2 open_hands_tone3 ' +
  'open_hands_tone4 open_hands_tone5 open_mouth ophiuchus orange_book orthodox_cross outbox_tray owl ox pa ' +
  'package paella page_facing_up page_with_curl pager paintbrush palm_tree pancakes panda_face paperclip ' +
  'paperclips park parking part_alternation_mark partly_sunny passenger_ship passport_control pause_button pe ' +
  'peace peace_symbol peach peanuts pear pen_ballpoint pen_fountain pencil pencil2 penguin pensive ' +
  'performing_arts persevere person_doing_cartwheel person_doing_cartwheel_tone1 person_doing_cartwheel_tone2 ' +
  'person_doing_cartwheel_tone3 person_doing_cartwheel_tone4 person_doing_cartwheel_tone5 person_frowning ' +
  'person_frowning_tone1 person_frowning_tone2 person_frowning_tone3 person_frowning_tone4 person_frowning_tone5 ' +
  'person_with_ball person_with_ball_tone1 person_with_ball_tone2 person_with_ball_tone3 person_with_ball_tone4 ' +
  'person_with_ball_tone5 person_with_blond_hair person_with_blond_hair_tone1 person_with_blond_hair_tone2 ' +
  'person_with_blond_hair_tone3 person_with_blond_hair_tone4 person_with_blond_hair_tone5 ' +
  'person_with_pouting_face person_with_pouting_face_tone1 person_with_pouting_face_tone2 ' +
  'person_with_pouting_face_tone3 person_with_pouting_face_tone4 person_with_pouting_face_tone5 pf pg ph pick pig ' +
  'pig2 pig_nose pill pineapple ping_pong pisces pizza pk pl place_of_worship play_pause pm pn point_down ' +
  'point_down_tone1 point_down_tone2 point_down_tone3 point_down_tone4 point_down_tone5 point_left ' +
  'point_left_tone1 point_left_tone2 point_left_tone3 point_left_tone4 point_left_tone5 point_right ' +
  'point_right_tone1 point_right_tone2 point_right_tone3 point_right_tone4 point_right_tone5 point_up point_up_2 ' +
  'point_up_2_tone1 point_up_2_tone2 point_up_2_tone3 point_up_2_tone4 point_up_2_tone5 point_up_tone1 ' +
  'point_up_tone2 point_up_tone3 point_up_tone4 point_up_tone5 police_car poo poodle poop popcorn post_office ' +
  'postal_horn postbox potable_water potato pouch poultry_leg pound pouting_cat pr pray pray_tone1 pray_tone2 ' +
  'pray_tone3 pray_tone4 pray_tone5 prayer_beads pregnant_woman pregnant_woman_tone1 pregnant_woman_tone2 ' +
  'pregnant_woman_tone3 pregnant_woman_tone4 pregnant_woman_tone5 previous_track prince prince_tone1 prince_tone2 ' +
  'prince_tone3 prince_tone4 prince_tone5 princess princess_tone1 princess_tone2 princess_tone3 princess_tone4 ' +
  'princess_tone5 printer projector ps pt punch punch_tone1 punch_tone2 punch_tone3 punch_tone4 punch_tone5 ' +
  'purple_heart purse pushpin put_litter_in_its_place pw py qa question rabbit rabbit2 race_car racehorse ' +
  'racing_car racing_motorcycle radio radio_button radioactive radioactive_sign rage railroad_track railway_car ' +
  'railway_track rainbow rainbow_flag raised_back_of_hand raised_back_of_hand_tone1 raised_back_of_hand_tone2 ' +
  'raised_back_of_hand_tone3 raised_back_of_hand_tone4 raised_back_of_hand_tone5 raised_hand raised_hand_tone1 ' +
  'raised_hand_tone2 raised_hand_tone3 raised_hand_tone4 raised_hand_tone5 raised_hand_with_fingers_splayed ' +
  'raised_hand_with_fingers_splayed_tone1 raised_hand_with_fingers_splayed_tone2 ' +
  'raised_hand_with_fingers_splayed_tone3 raised_hand_with_fingers_splayed_tone4 ' +
  'raised_hand_with_fingers_splayed_tone5 raised_hand_with_part_between_middle_and_ring_fingers ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone1 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone2 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone3 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone4 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone5 raised_hands raised_hands_tone1 raised_hands_tone2 ' +
  'raised_hands_tone3 raised_hands_tone4 raised_hands_tone5 raising_hand raising_hand_tone1 raising_hand_tone2 ' +
  'raising_hand_tone3 raising_hand_tone4 raising_hand_tone5 ram ramen rat re record_button recycle red_car ' +
  'red_circle registered relaxed relieved reminder_ribbon repeat repeat_one restroom ' +
  'reversed_hand_with_middle_finger_extended reversed_hand_with_middle_finger_extended_tone1 ' +
  'reversed_hand_with_middle_finger_extended_tone2 reversed_hand_with_middle_finger_extended_tone3 ' +
  'reversed_hand_with_middle_finger_extended_tone4 reversed_hand_with_middle_finger_extended_tone5 ' +
  'revolving_hearts rewind rhino rhinoceros ribbon rice rice_ball rice_cracker rice_scene right_anger_bubble ' +
  'right_facing_fist right_facing_fist_tone1 right_facing_fist_tone2 right_facing_fist_tone3 ' +
  'right_facing_fist_tone4 right_facing_fist_tone5 right_fist right_fist_tone1 right_fist_tone2 right_fist_tone3 ' +
  'right_fist_tone4 right_fist_tone5 ring ro robot robot_face rocket rofl rolled_up_newspaper roller_coaster ' +
  'rolling_eyes rolling_on_the_floor_laughing rooster rose rosette rotating_light round_pushpin rowboat ' +
  'rowboat_tone1 rowboat_tone2 rowboat_tone3 rowboat_tone4 rowboat_tone5 rs ru rugby_football runner runner_tone1 ' +
  'runner_tone2 runner_tone3 runner_tone4 runner_tone5 running_shirt_with_sash rw sa sagittarius sailboat sake ' +
  'salad sandal santa santa_tone1 santa_tone2 santa_tone3 santa_tone4 santa_tone5 satellite satellite_orbital ' +
  'satisfied saudi saudiarabia saxophone sb sc scales school school_satchel scissors scooter scorpion scorpius ' +
  'scream scream_cat scroll sd se seat second_place second_place_medal secret see_no_evil seedling selfie ' +
  'selfie_tone1 selfie_tone2 selfie_tone3 selfie_tone4 selfie_tone5 seven sg sh shaking_hands shaking_hands_tone1 ' +
  'shaking_hands_tone2 shaking_hands_tone3 shaking_hands_tone4 shaking_hands_tone5 shallow_pan_of_food shamrock ' +
  'shark shaved_ice sheep shell shelled_peanut shield shinto_shrine ship shirt shit shopping_bags shopping_cart ' +
  'shopping_trolley shower shrimp shrug shrug_tone1 shrug_tone2 shrug_tone3 shrug_tone4 shrug_tone5 si sick ' +
  'sign_of_the_horns sign_of_the_horns_tone1 sign_of_the_horns_tone2 sign_of_the_horns_tone3 ' +
  'sign_of_the_horns_tone4 sign_of_the_horns_tone5 signal_strength six six_pointed_star sj sk skeleton ski skier ' +
  'skull skull_and_crossbones skull_crossbones sl sleeping sleeping_accommodation sleepy sleuth_or_spy ' +
  'sleuth_or_spy_tone1 sleuth_or_spy_tone2 sleuth_or_spy_tone3 sleuth_or_spy_tone4 sleuth_or_spy_tone5 ' +
  'slight_frown slight_smile slightly_frowning_face slightly_smiling_face slot_machine sm small_airplane ' +
  'small_blue_diamond small_orange_diamond small_red_triangle small_red_triangle_down smile smile_cat smiley ' +
  'smiley_cat smiling_imp smirk smirk_cat smoking sn snail snake sneeze sneezing_face snow_capped_mountain ' +
  'snowboarder snowflake snowman snowman2 so sob soccer soon sos sound space_invader spades spaghetti sparkle ' +
  'sparkler sparkles sparkling_heart speak_no_evil speaker speaking_head speaking_head_in_silhouette ' +
  'speech_balloon speech_left speedboat spider spider_web spiral_calendar_pad spiral_note_pad spoon sports_medal ' +
  'spy spy_tone1 spy_tone2 spy_tone3 spy_tone4 spy_tone5 squid sr ss st stadium star star2 star_and_crescent ' +
  'star_of_david stars station statue_of_liberty steam_locomotive stew stop_button stop_sign stopwatch ' +
  'straight_ruler strawberry stuck_out_tongue stuck_out_tongue_closed_eyes stuck_out_tongue_winking_eye ' +
  'studio_microphone stuffed_flatbread stuffed_pita sun_with_face sunflower sunglasses sunny sunrise ' +
  'sunrise_over_mountains surfer surfer_tone1 surfer_tone2 surfer_tone3 surfer_tone4 surfer_tone5 sushi ' +
  'suspension_railway sv sweat sweat_drops sweat_smile sweet_potato swimmer swimmer_tone1 swimmer_tone2 ' +
  'swimmer_tone3 swimmer_tone4 swimmer_tone5 sx sy symbols synagogue syringe sz ta table_tennis taco tada ' +
  'tanabata_tree tangerine taurus taxi tc td tea telephone telephone_receiver telescope ten tennis tent tf tg th ' +
  'thermometer thermometer_face thinking thinking_face third_place third_place_medal thought_balloon three ' +
  'three_button_mouse thumbsdown thumbsdown_tone1 thumbsdown_tone2 thumbsdown_tone3 thumbsdown_tone4 ' +
  'thumbsdown_tone5 thumbsup thumbsup_tone1 thumbsup_tone2 thumbsup_tone3 thumbsup_tone4 thumbsup_tone5 ' +
  'thunder_cloud_and_rain thunder_cloud_rain ticket tickets tiger tiger2 timer timer_clock tired_face tj tk tl tm ' +
  'tn to toilet tokyo_tower tomato tone1 tone2 tone3 tone4 tone5 tongue tools top tophat tr track_next ' +
  'track_previous trackball tractor traffic_light train train2 tram triangular_flag_on_post triangular_ruler ' +
  'trident triumph trolleybus trophy tropical_drink tropical_fish truck trumpet tt tulip tumbler_glass turkey ' +
  'turkmenistan turtle tuvalu tuxedo_tone1 tuxedo_tone2 tuxedo_tone3 tuxedo_tone4 tuxedo_tone5 tv tw ' +
  'twisted_rightwards_arrows two two_hearts two_men_holding_hands two_women_holding_hands tz u5272 u5408 u55b6 ' +
  'u6307 u6708 u6709 u6e80 u7121 u7533 u7981 u7a7a ua ug um umbrella umbrella2 umbrella_on_ground unamused ' +
  'underage unicorn unicorn_face unlock up upside_down upside_down_face urn us uy uz v v_tone1 v_tone2 v_tone3 ' +
  'v_tone4 v_tone5 va vc ve vertical_traffic_light vg vhs vi vibration_mode video_camera video_game violin virgo ' +
  'vn volcano volleyball vs vu vulcan vulcan_tone1 vulcan_tone2 vulcan_tone3 vulcan_tone4 vulcan_tone5 walking ' +
  'walking_tone1 walking_tone2 walking_tone3 walking_tone4 walking_tone5 waning_crescent_moon waning_gibbous_moon ' +
  'warning wastebasket watch water_buffalo water_polo water_polo_tone1 water_polo_tone2 water_polo_tone3 ' +
  'water_polo_tone4 water_polo_tone5 watermelon wave wave_tone1 wave_tone2 wave_tone3 wave_tone4 wave_tone5 ' +
  'waving_black_flag waving_white_flag wavy_dash waxing_crescent_moon waxing_gibbous_moon wc weary wedding ' +
  'weight_lifter weight_lifter_tone1 weight_lifter_tone2 weight_lifter_tone3 weight_lifter_tone4 ' +
  'weight_lifter_tone5 wf whale whale2 wheel_of_dharma wheelchair whisky white_check_mark white_circle ' +
  'white_flower white_frowning_face white_large_square white_medium_small_square white_medium_square ' +
  'white_small_square white_square_button white_sun_behind_cloud white_sun_behind_cloud_with_rain white_sun_cloud ' +
  'white_sun_rain_cloud white_sun_small_cloud white_sun_with_small_cloud wilted_flower wilted_rose ' +
  'wind_blowing_face wind_chime wine_glass wink wolf woman woman_tone1 woman_tone2 woman_tone3 woman_tone4 ' +
  'woman_tone5 womans_clothes womans_hat womens world_map worried worship_symbol wrench wrestlers wrestlers_tone1 ' +
  'wrestlers_tone2 wrestlers_tone3 wrestlers_tone4 wrestlers_tone5 wrestling wrestling_tone1 wrestling_tone2 ' +
  'wrestling_tone3 wrestling_tone4 wrestling_tone5 writing_hand writing_hand_tone1 writing_hand_tone2 ' +
  'writing_hand_tone3 writing_hand_tone4 writing_hand_tone5 ws x xk ye yellow_heart yen yin_yang yt yum za zap ' +
  'zero zipper_mouth zipper_mouth_face zm zw zzz';

const ALIASES =
  '+1=thumbsup +1_tone1=thumbsup_tone1 +1_tone2=thumbsup_tone2 +1_tone3=thumbsup_tone3 +1_tone4=thumbsup_tone4 ' +
  '+1_tone5=thumbsup_tone5 -1=thumbsdown -1_tone1=thumbsdown_tone1 -1_tone2=thumbsdown_tone2 ' +
  '-1_tone3=thumbsdown_tone3 -1_tone4=thumbsdown_tone4 -1_tone5=thumbsdown_tone5 ac=flag_ac ad=flag_ad ' +
  'admission_tickets=tickets ae=flag_ae af=flag_af ag=flag_ag ai=flag_ai al=flag_al am=flag_am anguished=frowning ' +
  'ao=flag_ao aq=flag_aq ar=flag_ar archery=bow_and_arrow as=flag_as at=flag_at atom_symbol=atom au=flag_au ' +
  'aw=flag_aw ax=flag_ax az=flag_az ba=flag_ba back_of_hand=raised_back_of_hand ' +
  'back_of_hand_tone1=raised_back_of_hand_tone1 back_of_hand_tone2=raised_back_of_hand_tone2 ' +
  'back_of_hand_tone3=raised_back_of_hand_tone3 back_of_hand_tone4=raised_back_of_hand_tone4 ' +
  'back_of_hand_tone5=raised_back_of_hand_tone5 baguette_bread=french_bread ballot_box_with_ballot=ballot_box ' +
  'bb=flag_bb bd=flag_bd be=flag_be beach_with_umbrella=beach bellhop_bell=bellhop bf=flag_bf bg=flag_bg ' +
  'bh=flag_bh bi=flag_bi biohazard_sign=biohazard bj=flag_bj bl=flag_bl bm=flag_bm bn=flag_bn bo=flag_bo ' +
  'bottle_with_popping_cork=champagne boxing_gloves=boxing_glove bq=flag_bq br=flag_br bs=flag_bs bt=flag_bt ' +
  'building_construction=construction_site bv=flag_bv bw=flag_bw by=flag_by bz=flag_bz ca=flag_ca ' +
  'call_me_hand=call_me call_me_hand_tone1=call_me_tone1 call_me_hand_tone2=call_me_tone2 ' +
  'call_me_hand_tone3=call_me_tone3 call_me_hand_tone4=call_me_tone4 call_me_hand_tone5=call_me_tone5 ' +
  'card_file_box=card_box card_index_dividers=dividers cc=flag_cc cf=flag_cf cg=flag_cg ch=flag_ch ' +
  'cheese_wedge=cheese chile=flag_cl ci=flag_ci city_sunrise=city_sunset ck=flag_ck ' +
  'clinking_glass=champagne_glass cloud_with_lightning=cloud_lightning cloud_with_rain=cloud_rain ' +
  'cloud_with_snow=cloud_snow cloud_with_tornado=cloud_tornado clown_face=clown cm=flag_cm cn=flag_cn co=flag_co ' +
  'congo=flag_cd couch_and_lamp=couch couple_with_heart_mm=couple_mm couple_with_heart_ww=couple_ww ' +
  'couplekiss_mm=kiss_mm couplekiss_ww=kiss_ww cp=flag_cp cr=flag_cr cricket_bat_ball=cricket cu=flag_cu ' +
  'cv=flag_cv cw=flag_cw cx=flag_cx cy=flag_cy cz=flag_cz dagger_knife=dagger de=flag_de ' +
  'derelict_house_building=house_abandoned desert_island=island desktop_computer=desktop dg=flag_dg dj=flag_dj ' +
  'dk=flag_dk dm=flag_dm do=flag_do double_vertical_bar=pause_button dove_of_peace=dove drool=drooling_face ' +
  'drum_with_drumsticks=drum dz=flag_dz ea=flag_ea ec=flag_ec ee=flag_ee eg=flag_eg eh=flag_eh eject_symbol=eject ' +
  'email=e-mail er=flag_er es=flag_es et=flag_et eu=flag_eu expecting_woman=pregnant_woman ' +
  'expecting_woman_tone1=pregnant_woman_tone1 expecting_woman_tone2=pregnant_woman_tone2 ' +
  'expecting_woman_tone3=pregnant_woman_tone3 expecting_woman_tone4=pregnant_woman_tone4 ' +
  'expecting_woman_tone5=pregnant_woman_tone5 face_with_cowboy_hat=cowboy face_with_head_bandage=head_bandage ' +
  'face_with_rolling_eyes=rolling_eyes face_with_thermometer=thermometer_face facepalm=face_palm ' +
  'facepalm_tone1=face_palm_tone1 facepalm_tone2=face_palm_tone2 facepalm_tone3=face_palm_tone3 ' +
  'facepalm_tone4=face_palm_tone4 facepalm_tone5=face_palm_tone5 fencing=fencer fi=flag_fi ' +
  'film_projector=projector first_place_medal=first_place fj=flag_fj fk=flag_fk flame=fire fm=flag_fm fo=flag_fo ' +
  'fork_and_knife_with_plate=fork_knife_plate fox_face=fox fr=flag_fr frame_with_picture=frame_photo ' +
  'funeral_urn=urn ga=flag_ga gb=flag_gb gd=flag_gd ge=flag_ge gf=flag_gf gg=flag_gg gh=flag_gh gi=flag_gi ' +
  'gl=flag_gl glass_of_milk=milk gm=flag_gm gn=flag_gn goal_net=goal gp=flag_gp gq=flag_gq gr=flag_gr ' +
  'grandma=older_woman grandma_tone1=older_woman_tone1 grandma_tone2=older_woman_tone2 ' +
  'grandma_tone3=older_woman_tone3 grandma_tone4=older_woman_tone4 grandma_tone5=older_woman_tone5 ' +
  'green_salad=salad gs=flag_gs gt=flag_gt gu=flag_gu gw=flag_gw gy=flag_gy hammer_and_pick=hammer_pick ' +
  'hammer_and_wrench=tools hand_with_index_and_middle_finger_crossed=fingers_crossed ' +
  'hand_with_index_and_middle_fingers_crossed_tone1=fingers_crossed_tone1 ' +
  'hand_with_index_and_middle_fingers_crossed_tone2=fingers_crossed_tone2 ' +
  'hand_with_index_and_middle_fingers_crossed_tone3=fingers_crossed_tone3 ' +
  'hand_with_index_and_middle_fingers_crossed_tone4=fingers_crossed_tone4 ' +
  'hand_with_index_and_middle_fingers_crossed_tone5=fingers_crossed_tone5 hankey=poop ' +
  'heavy_heart_exclamation_mark_ornament=heart_exclamation helmet_with_white_cross=helmet_with_cross hk=flag_hk ' +
  'hm=flag_hm hn=flag_hn hot_dog=hotdog house_buildings=homes hr=flag_hr ht=flag_ht hu=flag_hu ' +
  'hugging_face=hugging ic=flag_ic ie=flag_ie il=flag_il im=flag_im in=flag_in indonesia=flag_id io=flag_io ' +
  'iq=flag_iq ir=flag_ir is=flag_is it=flag_it je=flag_je jm=flag_jm jo=flag_jo jp=flag_jp juggler=juggling ' +
  'juggler_tone1=juggling_tone1 juggler_tone2=juggling_tone2 juggler_tone3=juggling_tone3 ' +
  'juggler_tone4=juggling_tone4 juggler_tone5=juggling_tone5 karate_uniform=martial_arts_uniform kayak=canoe ' +
  'ke=flag_ke keycap_asterisk=asterisk kg=flag_kg kh=flag_kh ki=flag_ki kiwifruit=kiwi km=flag_km kn=flag_kn ' +
  'kp=flag_kp kr=flag_kr kw=flag_kw ky=flag_ky kz=flag_kz la=flag_la latin_cross=cross lb=flag_lb lc=flag_lc ' +
  'left_fist=left_facing_fist left_fist_tone1=left_facing_fist_tone1 left_fist_tone2=left_facing_fist_tone2 ' +
  'left_fist_tone3=left_facing_fist_tone3 left_fist_tone4=left_facing_fist_tone4 ' +
  'left_fist_tone5=left_facing_fist_tone5 left_speech_bubble=speech_left li=flag_li liar=lying_face ' +
  'linked_paperclips=paperclips lion=lion_face lk=flag_lk lower_left_ballpoint_pen=pen_ballpoint ' +
  'lower_left_crayon=crayon lower_left_fountain_pen=pen_fountain lower_left_paintbrush=paintbrush lr=flag_lr ' +
  'ls=flag_ls lt=flag_lt lu=flag_lu lv=flag_lv ly=flag_ly ma=flag_ma male_dancer=man_dancing ' +
  'male_dancer_tone1=man_dancing_tone1 male_dancer_tone2=man_dancing_tone2 male_dancer_tone3=man_dancing_tone3 ' +
  'male_dancer_tone4=man_dancing_tone4 male_dancer_tone5=man_dancing_tone5 ' +
  'man_in_business_suit_levitating=levitate mantlepiece_clock=clock mc=flag_mc md=flag_md me=flag_me memo=pencil ' +
  'mf=flag_mf mg=flag_mg mh=flag_mh mk=flag_mk ml=flag_ml mm=flag_mm mn=flag_mn mo=flag_mo ' +
  'money_mouth_face=money_mouth mother_christmas=mrs_claus mother_christmas_tone1=mrs_claus_tone1 ' +
  'mother_christmas_tone2=mrs_claus_tone2 mother_christmas_tone3=mrs_claus_tone3 ' +
  'mother_christmas_tone4=mrs_claus_tone4 mother_christmas_tone5=mrs_claus_tone5 motorbike=motor_scooter ' +
  'mp=flag_mp mq=flag_mq mr=flag_mr ms=flag_ms mt=flag_mt mu=flag_mu mv=flag_mv mw=flag_mw mx=flag_mx my=flag_my ' +
  'mz=flag_mz na=flag_na national_park=park nc=flag_nc ne=flag_ne nerd_face=nerd next_track=track_next nf=flag_nf ' +
  'ni=flag_ni nigeria=flag_ng nl=flag_nl no=flag_no np=flag_np nr=flag_nr nu=flag_nu nz=flag_nz oil_drum=oil ' +
  'old_key=key2 om=flag_om pa=flag_pa paella=shallow_pan_of_food passenger_ship=cruise_ship pe=flag_pe ' +
  'peace_symbol=peace person_doing_cartwheel=cartwheel person_doing_cartwheel_tone1=cartwheel_tone1 ' +
  'person_doing_cartwheel_tone2=cartwheel_tone2 person_doing_cartwheel_tone3=cartwheel_tone3 ' +
  'person_doing_cartwheel_tone4=cartwheel_tone4 person_doing_cartwheel_tone5=cartwheel_tone5 ' +
  'person_with_ball=basketball_player person_with_ball_tone1=basketball_player_tone1 ' +
  'person_with_ball_tone2=basketball_player_tone2 person_with_ball_tone3=basketball_player_tone3 ' +
  'person_with_ball_tone4=basketball_player_tone4 person_with_ball_tone5=basketball_player_tone5 pf=flag_pf ' +
  'pg=flag_pg ph=flag_ph pk=flag_pk pl=flag_pl pm=flag_pm pn=flag_pn poo=poop pr=flag_pr ' +
  'previous_track=track_previous ps=flag_ps pt=flag_pt pw=flag_pw py=flag_py qa=flag_qa racing_car=race_car ' +
  'racing_motorcycle=motorcycle radioactive_sign=radioactive railroad_track=railway_track ' +
  'rainbow_flag=gay_pride_flag raised_hand_with_fingers_splayed=hand_splayed ' +
  'raised_hand_with_fingers_splayed_tone1=hand_splayed_tone1 ' +
  'raised_hand_with_fingers_splayed_tone2=hand_splayed_tone2 ' +
  'raised_hand_with_fingers_splayed_tone3=hand_splayed_tone3 ' +
  'raised_hand_with_fingers_splayed_tone4=hand_splayed_tone4 ' +
  'raised_hand_with_fingers_splayed_tone5=hand_splayed_tone5 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers=vulcan ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone1=vulcan_tone1 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone2=vulcan_tone2 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone3=vulcan_tone3 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone4=vulcan_tone4 ' +
  'raised_hand_with_part_between_middle_and_ring_fingers_tone5=vulcan_tone5 re=flag_re ' +
  'reversed_hand_with_middle_finger_extended=middle_finger ' +
  'reversed_hand_with_middle_finger_extended_tone1=middle_finger_tone1 ' +
  'reversed_hand_with_middle_finger_extended_tone2=middle_finger_tone2 ' +
  'reversed_hand_with_middle_finger_extended_tone3=middle_finger_tone3 ' +
  'reversed_hand_with_middle_finger_extended_tone4=middle_finger_tone4 ' +
  'reversed_hand_with_middle_finger_extended_tone5=middle_finger_tone5 rhinoceros=rhino ' +
  'right_anger_bubble=anger_right right_fist=right_facing_fist right_fist_tone1=right_facing_fist_tone1 ' +
  'right_fist_tone2=right_facing_fist_tone2 right_fist_tone3=right_facing_fist_tone3 ' +
  'right_fist_tone4=right_facing_fist_tone4 right_fist_tone5=right_facing_fist_tone5 ro=flag_ro robot_face=robot ' +
  'rolled_up_newspaper=newspaper2 rolling_on_the_floor_laughing=rofl rs=flag_rs ru=flag_ru rw=flag_rw ' +
  'satisfied=laughing saudi=flag_sa saudiarabia=flag_sa sb=flag_sb sc=flag_sc sd=flag_sd se=flag_se ' +
  'second_place_medal=second_place sg=flag_sg sh=flag_sh shaking_hands=handshake ' +
  'shaking_hands_tone1=handshake_tone1 shaking_hands_tone2=handshake_tone2 shaking_hands_tone3=handshake_tone3 ' +
  'shaking_hands_tone4=handshake_tone4 shaking_hands_tone5=handshake_tone5 shelled_peanut=peanuts shit=poop ' +
  'shopping_trolley=shopping_cart si=flag_si sick=nauseated_face sign_of_the_horns=metal ' +
  'sign_of_the_horns_tone1=metal_tone1 sign_of_the_horns_tone2=metal_tone2 sign_of_the_horns_tone3=metal_tone3 ' +
  'sign_of_the_horns_tone4=metal_tone4 sign_of_the_horns_tone5=metal_tone5 sj=flag_sj sk=flag_sk skeleton=skull ' +
  'skull_and_crossbones=skull_crossbones sl=flag_sl sleuth_or_spy=spy sleuth_or_spy_tone1=spy_tone1 ' +
  'sleuth_or_spy_tone2=spy_tone2 sleuth_or_spy_tone3=spy_tone3 sleuth_or_spy_tone4=spy_tone4 ' +
  'sleuth_or_spy_tone5=spy_tone5 slightly_frowning_face=slight_frown slightly_smiling_face=slight_smile ' +
  'sm=flag_sm small_airplane=airplane_small sn=flag_sn sneeze=sneezing_face snow_capped_mountain=mountain_snow ' +
  'so=flag_so speaking_head_in_silhouette=speaking_head spiral_calendar_pad=calendar_spiral ' +
  'spiral_note_pad=notepad_spiral sports_medal=medal sr=flag_sr ss=flag_ss st=flag_st stop_sign=octagonal_sign ' +
  'studio_microphone=microphone2 stuffed_pita=stuffed_flatbread sv=flag_sv sx=flag_sx sy=flag_sy sz=flag_sz ' +
  'ta=flag_ta table_tennis=ping_pong tc=flag_tc td=flag_td tf=flag_tf tg=flag_tg th=flag_th ' +
  'thinking_face=thinking third_place_medal=third_place three_button_mouse=mouse_three_button ' +
  'thunder_cloud_and_rain=thunder_cloud_rain timer_clock=timer tj=flag_tj tk=flag_tk tl=flag_tl tn=flag_tn ' +
  'to=flag_to tr=flag_tr tt=flag_tt turkmenistan=flag_tm tuvalu=flag_tv tuxedo_tone1=man_in_tuxedo_tone1 ' +
  'tuxedo_tone2=man_in_tuxedo_tone2 tuxedo_tone3=man_in_tuxedo_tone3 tuxedo_tone4=man_in_tuxedo_tone4 ' +
  'tuxedo_tone5=man_in_tuxedo_tone5 tw=flag_tw tz=flag_tz ua=flag_ua ug=flag_ug um=flag_um ' +
  'umbrella_on_ground=beach_umbrella unicorn_face=unicorn upside_down_face=upside_down us=flag_us uy=flag_uy ' +
  'uz=flag_uz va=flag_va vc=flag_vc ve=flag_ve vg=flag_vg vi=flag_vi vn=flag_vn vu=flag_vu ' +
  'waving_black_flag=flag_black waving_white_flag=flag_white weight_lifter=lifter ' +
  'weight_lifter_tone1=lifter_tone1 weight_lifter_tone2=lifter_tone2 weight_lifter_tone3=lifter_tone3 ' +
  'weight_lifter_tone4=lifter_tone4 weight_lifter_tone5=lifter_tone5 wf=flag_wf whisky=tumbler_glass ' +
  'white_frowning_face=frowning2 white_sun_behind_cloud=white_sun_cloud ' +
  'white_sun_behind_cloud_with_rain=white_sun_rain_cloud white_sun_with_small_cloud=white_sun_small_cloud ' +
  'wilted_flower=wilted_rose world_map=map worship_symbol=place_of_worship wrestling=wrestlers ' +
  'wrestling_tone1=wrestlers_tone1 wrestling_tone2=wrestlers_tone2 wrestling_tone3=wrestlers_tone3 ' +
  'wrestling_tone4=wrestlers_tone4 wrestling_tone5=wrestlers_tone5 ws=flag_ws xk=flag_xk ye=flag_ye yt=flag_yt ' +
  'za=flag_za zipper_mouth_face=zipper_mouth zm=flag_zm zw=flag_zw';

export const EMOJI_NAMES: ReadonlySet<string> = new Set(NAMES.split(' '));

const ALIAS_MAP: ReadonlyMap<string, string> = new Map(ALIASES.split(' ').map((pair) => pair.split('=') as [string, string]));

/** GitLab's normalize_emoji_name: an alias becomes its emoji's name. */
export function normalizeEmojiName(name: string): string {
  return ALIAS_MAP.get(name) ?? name;
}
